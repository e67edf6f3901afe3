// `topocheck report --html DIR [--from REPORT.json] [--rerun] [--budget B] [--seed S] [--jobs J]`:
// the findings site (site/site.h) from a verify report: --from's; else the last run of every claim
// reading that `verify` kept (output.h, last_verify_report); else, or with --rerun, a verify run
// made first (this binary's `verify --json`, its progress on stderr). Exit 0 when the site is written
// (verdicts that differ from the ledger are shown on the site, and said on stderr), 2 on a bad
// argument, an unreadable report or corpus case, a drawing that fails its checks, or a DIR that is
// not a topocheck site; 70 on an internal error. DIR is replaced only once the new site is whole.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_report_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
