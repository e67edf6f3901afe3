// Writing output files safely: the one way topocheck writes a file the user names (reports,
// schedules, traces, plots) and the corpus cases it stores.
//
// Contract of write_file(file, content):
//   - "-" is stdout: plain writes, flushed and checked.
//   - A regular file, or a path that does not exist yet, is replaced atomically: a temporary in the
//     same folder (FILE.tmp.PID.N), written, fsync'd, renamed over FILE, then the folder fsync'd.
//     A reader sees the old content or the new, never a part; an existing file keeps its mode.
//   - Anything else that exists (a character device such as /dev/null or /dev/full, a FIFO, a
//     socket) and every symlink is written in place by plain writes to what it names: never
//     renamed over, so a device stays a device and a link stays a link.
//   - A folder is an error ("is a directory").
//   - Every write, the fsyncs, the close and the rename are checked; any failure is an Error naming
//     the file (and the system's reason), and no temporary is left behind.
// Temporaries are registered while they exist; install_signal_cleanup() makes SIGINT, SIGTERM and
// SIGHUP unlink every registered temporary (async-signal-safe unlink) before the signal takes its
// default course, so an interrupted write leaves neither a half-written target nor a temporary.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/status.h"

namespace topocheck {

struct WriteOptions {
  // Create the file's missing parent folders first (the corpus does; a user's output path must
  // name an existing folder).
  bool create_folders = false;
};

Result<std::filesystem::path> write_file(const std::filesystem::path& file, std::string_view content,
                                         const WriteOptions& options = {});

// Flushes std::cout and stdout and reports whether every write to stdout so far succeeded; the
// error names stdout and the reason (e.g. "No space left on device"). Call it once, at the end.
Result<bool> finish_stdout();

// Installs the SIGINT/SIGTERM/SIGHUP handler that removes the live temporaries, then re-raises the
// signal with its default action. Idempotent; write_file calls it before its first temporary.
void install_signal_cleanup();

// The registry of live temporaries, exposed for tests: 32 slots, each for a path shorter than
// 4,096 bytes. add returns a slot, or -1 when all 32 are taken or the path does not fit (the write
// still happens, only unprotected from signals).
namespace temporaries {
int add(const std::string& path);
void remove(int slot);
// What the signal handler does: unlinks every registered temporary (async-signal-safe).
void unlink_all() noexcept;
// How many temporaries are registered now.
int live();
// The path a slot holds ("" once released: a signal between a later claim of the slot and the
// copy of its new path then finds nothing to unlink). For tests.
const char* slot_path(int slot);
}  // namespace temporaries

}  // namespace topocheck
