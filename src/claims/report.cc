#include "claims/report.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/xml.h"

namespace topocheck::claims {
namespace {

std::string truncate(const std::string& s, size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 3) + "...";
}

// ANSI colours of the verdicts: holds green, refuted yellow, vacuous magenta, the rest red.
const char* outcome_color(Outcome o) {
  return o == Outcome::kHolds ? "32" : o == Outcome::kRefuted ? "33" : o == Outcome::kVacuous ? "35" : "31";
}

}  // namespace

nlohmann::json counterexample_to_json(const Counterexample& cx) {
  return {{"params", cx.params}, {"input", cx.input}, {"violation", cx.violation},
          {"witness", cx.witness}, {"minimized", cx.minimized}};
}

std::string render_table(const std::vector<ReadingVerdict>& verdicts, bool color) {
  size_t wid = 5, wread = 7;
  for (const auto& v : verdicts) {
    wid = std::max(wid, v.claim.size());
    wread = std::max(wread, v.reading.size());
  }
  auto paint = [&](const std::string& s, const char* code) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  };
  std::string out = fmt::format("{:<{}}  {:<{}}  {:<14}  {:<14}  {:>10}  {:>10}  {:>7}  {}\n", "claim", wid, "reading",
                                wread, "verdict", "expected", "cases", "applicable", "seconds", "scope");
  for (const auto& v : verdicts) {
    const std::string verdict = verdict_word(v.outcome, v.empirical);
    const std::string padded = fmt::format("{:<14}", verdict);
    out += fmt::format("{:<{}}  {:<{}}  {}  {:<14}  {:>10}  {:>10}  {:>7.2f}  {}\n", v.claim, wid, v.reading, wread,
                       paint(padded, outcome_color(v.outcome)),
                       v.expected ? verdict_word(*v.expected, v.empirical) : "(none)", v.cases, v.applicable,
                       v.seconds, v.scope);
    if (!v.beyond_premise.empty())
      out += fmt::format("{:<{}}    holds outside its premise too: {}\n", "", wid, truncate(v.beyond_premise, 400));
    if (v.outcome != Outcome::kHolds && !v.detail.empty())
      out += fmt::format("{:<{}}    {}\n", "", wid, truncate(v.detail, 400));
    if (!v.corpus_case.empty()) out += fmt::format("{:<{}}    case: {}\n", "", wid, v.corpus_case);
    if (!v.matches) out += fmt::format("{:<{}}    {}\n", "", wid, paint("DIFFERS: " + v.mismatch, "31"));
  }
  size_t differing = 0;
  std::map<Outcome, size_t> counts;
  for (const auto& v : verdicts) {
    differing += !v.matches;
    ++counts[v.outcome];
  }
  out += fmt::format("\n{} claim readings: {} holds, {} refuted, {} vacuous, {} inconclusive, {} error; {}\n",
                     verdicts.size(), counts[Outcome::kHolds], counts[Outcome::kRefuted], counts[Outcome::kVacuous],
                     counts[Outcome::kInconclusive], counts[Outcome::kError],
                     differing == 0 ? std::string("all match the ledger")
                                    : fmt::format("{} differ from the ledger", differing));
  out += render_claim_summaries(verdicts);
  return out;
}

std::vector<ClaimSummary> summarize_claims(const std::vector<ReadingVerdict>& verdicts) {
  std::vector<ClaimSummary> out;
  std::map<std::string, size_t> index;
  std::map<std::string, bool> any_refuted, undecided, beyond, empirical;
  for (const auto& v : verdicts) {
    if (!index.count(v.claim)) {
      index[v.claim] = out.size();
      out.push_back({v.claim, "", {}, {}, {}});
    }
    ClaimSummary& s = out[index[v.claim]];
    beyond[v.claim] = beyond[v.claim] || v.beyond_paper;
    empirical[v.claim] = empirical[v.claim] || v.empirical;
    if (!v.faithful) {
      s.other.push_back(fmt::format("{} ({}, not a reading of the text)", v.reading, to_string(v.outcome)));
      continue;
    }
    if (v.outcome == Outcome::kRefuted) {
      s.refuted.push_back(v.reading);
      any_refuted[v.claim] = true;
    } else if (v.outcome == Outcome::kHolds) {
      s.holding.push_back(v.reading);
    } else {
      s.other.push_back(fmt::format("{} ({})", v.reading, to_string(v.outcome)));
      undecided[v.claim] = true;
    }
  }
  std::vector<ClaimSummary> refuted;
  for (ClaimSummary& s : out) {
    if (!any_refuted[s.claim]) continue;
    s.kind = beyond[s.claim]          ? "beyond the paper"
             : !s.holding.empty()     ? "ambiguous"
             : undecided[s.claim]     ? "undecided"
             // A measured finding refuted on every workload we can run is a failed reproduction:
             // the paper's own inputs and machine are not ours to rerun.
             : empirical[s.claim]     ? "not reproduced"
                                      : "error of the paper";
    refuted.push_back(std::move(s));
  }
  return refuted;
}

std::string render_claim_summaries(const std::vector<ReadingVerdict>& verdicts) {
  const auto summaries = summarize_claims(verdicts);
  if (summaries.empty()) return "";
  size_t wid = 5;
  for (const auto& s : summaries) wid = std::max(wid, s.claim.size());
  std::string out =
      "\nRefuted claims: an error of the paper when every reading its text allows is refuted; ambiguous when one holds "
      "(the text is true under that reading); not reproduced: a measured finding refuted under every reading we can run; "
      "beyond the paper: a question or control of ours.\n";
  for (const auto& s : summaries) {
    out += fmt::format("  {:<{}}  {:<18}  refuted: {}", s.claim, wid, s.kind, fmt::join(s.refuted, ", "));
    if (!s.holding.empty()) out += fmt::format("; holds: {}", fmt::join(s.holding, ", "));
    if (!s.other.empty()) out += fmt::format("; {}", fmt::join(s.other, ", "));
    out += "\n";
  }
  return out;
}

std::string render_verdict_line(const ReadingVerdict& v, size_t done, size_t total, bool color) {
  auto paint = [&](const std::string& s, const char* code) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  };
  const char* code = outcome_color(v.outcome);
  const std::string counter = fmt::format("[{}/{}]", done, total);
  return fmt::format("{:>{}} {} {} [{}] {:.2f} s: {}\n", counter, 2 * std::to_string(total).size() + 3,
                     paint(fmt::format("{:<14}", verdict_word(v.outcome, v.empirical)), code), v.claim, v.reading,
                     v.seconds, v.matches ? std::string("as in the ledger") : paint("DIFFERS: " + v.mismatch, "31"));
}

nlohmann::json verdicts_to_json(const std::vector<ReadingVerdict>& verdicts, Budget budget,
                                uint64_t seed, int jobs, std::optional<Shard> shard, int merged_shards) {
  nlohmann::json claims = nlohmann::json::array();
  std::map<Outcome, size_t> counts;
  size_t differing = 0;
  for (const auto& v : verdicts) {
    nlohmann::json methods = nlohmann::json::array();
    for (const MethodResult& r : v.methods)
      methods.push_back({{"method", to_string(r.method)}, {"verdict", to_string(r.outcome)},
                         {"scope", r.scope}, {"cases", r.cases}, {"applicable", r.applicable_count()},
                         {"beyond_premise", r.beyond_premise}, {"detail", r.detail},
                         {"seconds", r.seconds}, {"shard", r.shard}, {"skipped", r.skipped},
                         {"counterexample", r.counterexample ? counterexample_to_json(*r.counterexample)
                                                             : nlohmann::json()}});
    nlohmann::json j = {{"id", v.claim},
                        {"reading", v.reading},
                        {"methods", methods},
                        {"verdict", to_string(v.outcome)},
                        {"shown_as", verdict_word(v.outcome, v.empirical)},
                        {"scope", v.scope},
                        {"cases", v.cases},
                        {"applicable", v.applicable},
                        {"beyond_premise", v.beyond_premise},
                        {"detail", v.detail},
                        {"expected", v.expected ? nlohmann::json(to_string(*v.expected)) : nlohmann::json()},
                        {"matches", v.matches},
                        {"mismatch", v.mismatch},
                        {"corpus_case", v.corpus_case.empty() ? nlohmann::json() : nlohmann::json(v.corpus_case)},
                        {"counterexample", v.counterexample ? counterexample_to_json(*v.counterexample) : nlohmann::json()},
                        {"seed", v.seed},
                        {"seconds", v.seconds},
                        {"faithful", v.faithful},
                        {"beyond_paper", v.beyond_paper}};
    claims.push_back(j);
    ++counts[v.outcome];
    differing += !v.matches;
  }
  nlohmann::json out = {{"budget", to_string(budget)},
          {"seed", seed},
          {"jobs", jobs},
          {"shard", shard ? nlohmann::json(shard->to_string()) : nlohmann::json()},
          {"claims", claims},
          {"summary",
           {{"total", verdicts.size()}, {"matching", verdicts.size() - differing}, {"differing", differing},
            {"holds", counts[Outcome::kHolds]}, {"refuted", counts[Outcome::kRefuted]},
            {"vacuous", counts[Outcome::kVacuous]}, {"inconclusive", counts[Outcome::kInconclusive]},
            {"error", counts[Outcome::kError]}}}};
  nlohmann::json summaries = nlohmann::json::array();
  for (const ClaimSummary& s : summarize_claims(verdicts))
    summaries.push_back({{"claim", s.claim}, {"kind", s.kind}, {"refuted", s.refuted}, {"holds", s.holding},
                         {"other", s.other}});
  out["refuted_claims"] = summaries;
  if (merged_shards > 0) out["merged_shards"] = merged_shards;
  return out;
}

namespace {

using nlohmann::json;

// Typed getters on untrusted JSON: the error names the field.
Result<const json*> field(const json& j, const std::string& key, json::value_t type, const std::string& where) {
  if (!j.is_object() || !j.contains(key))
    return invalid_argument(fmt::format("{}: missing field \"{}\"", where, key));
  const json& v = j.at(key);
  const bool ok = type == json::value_t::number_unsigned ? v.is_number_unsigned()
                  : type == json::value_t::number_float  ? v.is_number()
                                                         : v.type() == type;
  if (!ok) return invalid_argument(fmt::format("{}: field \"{}\" has the wrong type", where, key));
  return &v;
}

Result<Counterexample> counterexample_from_json(const json& j, const std::string& where) {
  Counterexample cx;
  for (const char* key : {"params", "input", "witness"}) {
    auto f = field(j, key, json::value_t::object, where);
    if (!f) return f.error();
  }
  auto violation = field(j, "violation", json::value_t::string, where);
  if (!violation) return violation.error();
  auto minimized = field(j, "minimized", json::value_t::boolean, where);
  if (!minimized) return minimized.error();
  cx.params = j.at("params");
  cx.input = j.at("input");
  cx.witness = j.at("witness");
  cx.violation = (*violation)->get<std::string>();
  cx.minimized = (*minimized)->get<bool>();
  return cx;
}

}  // namespace

Result<ShardReport> shard_report_from_json(const nlohmann::json& j, const std::string& file) {
  auto fail = [&](const Error& e) { return parse_error(e.message, file); };
  ShardReport report;
  report.file = file;
  auto budget = field(j, "budget", json::value_t::string, "report");
  if (!budget) return fail(budget.error());
  auto b = parse_budget((*budget)->get<std::string>());
  if (!b) return parse_error("report: unknown budget", file);
  report.budget = *b;
  auto seed = field(j, "seed", json::value_t::number_unsigned, "report");
  if (!seed) return fail(seed.error());
  report.seed = (*seed)->get<uint64_t>();
  if (!j.contains("shard")) return parse_error("report: missing field \"shard\"", file);
  if (!j.at("shard").is_null()) {
    if (!j.at("shard").is_string()) return parse_error("report: field \"shard\" has the wrong type", file);
    auto shard = parse_shard(j.at("shard").get<std::string>());
    if (!shard) return parse_error("report: " + shard.error().message, file);
    report.shard = *shard;
  }
  if (j.contains("date")) {
    if (!j.at("date").is_string()) return parse_error("report: field \"date\" has the wrong type", file);
    report.date = j.at("date").get<std::string>();
  }
  auto claims = field(j, "claims", json::value_t::array, "report");
  if (!claims) return fail(claims.error());
  for (size_t k = 0; k < (*claims)->size(); ++k) {
    const json& c = (*claims)->at(k);
    const std::string where = fmt::format("claims[{}]", k);
    ReadingVerdict v;
    auto id = field(c, "id", json::value_t::string, where);
    if (!id) return fail(id.error());
    auto reading = field(c, "reading", json::value_t::string, where);
    if (!reading) return fail(reading.error());
    auto vseed = field(c, "seed", json::value_t::number_unsigned, where);
    if (!vseed) return fail(vseed.error());
    auto seconds = field(c, "seconds", json::value_t::number_float, where);
    if (!seconds) return fail(seconds.error());
    v.claim = (*id)->get<std::string>();
    v.reading = (*reading)->get<std::string>();
    v.seed = (*vseed)->get<uint64_t>();
    v.seconds = (*seconds)->get<double>();
    const std::string named = fmt::format("{} ({} [{}])", where, v.claim, v.reading);
    // The reading's own verdict and the fields verdicts_to_json writes with it: merge recomputes
    // the verdict from the methods, but a report whose verdicts are not among the outcomes, or
    // whose refutations carry no counterexample, has been edited and is not merged.
    auto claim_verdict = field(c, "verdict", json::value_t::string, named);
    if (!claim_verdict) return fail(claim_verdict.error());
    if (!parse_outcome((*claim_verdict)->get<std::string>()))
      return parse_error(fmt::format("{}: unknown verdict '{}' (holds, refuted, inconclusive, error or vacuous)", named,
                                     (*claim_verdict)->get<std::string>()),
                         file);
    for (const char* key : {"shown_as", "scope", "beyond_premise", "detail", "mismatch"}) {
      auto f = field(c, key, json::value_t::string, named);
      if (!f) return fail(f.error());
    }
    for (const char* key : {"cases", "applicable"}) {
      auto f = field(c, key, json::value_t::number_unsigned, named);
      if (!f) return fail(f.error());
    }
    auto matches = field(c, "matches", json::value_t::boolean, named);
    if (!matches) return fail(matches.error());
    for (const char* key : {"expected", "corpus_case", "counterexample"})
      if (!c.contains(key)) return parse_error(fmt::format("{}: missing field \"{}\"", named, key), file);
    if (!c.at("expected").is_null() &&
        !(c.at("expected").is_string() && parse_outcome(c.at("expected").get<std::string>())))
      return parse_error(fmt::format("{}: field \"expected\" is not null or a verdict", named), file);
    if (!c.at("corpus_case").is_null() && !c.at("corpus_case").is_string())
      return parse_error(fmt::format("{}: field \"corpus_case\" has the wrong type", named), file);
    if (!c.at("counterexample").is_null()) {
      auto cx = counterexample_from_json(c.at("counterexample"), named + ".counterexample");
      if (!cx) return fail(cx.error());
    } else if ((*claim_verdict)->get<std::string>() == to_string(Outcome::kRefuted)) {
      return parse_error(fmt::format("{}: verdict refuted without a counterexample", named), file);
    }
    // Optional (older reports lack them).
    for (const char* key : {"faithful", "beyond_paper"})
      if (c.contains(key) && !c.at(key).is_boolean())
        return parse_error(fmt::format("{}: field \"{}\" has the wrong type", named, key), file);
    if (c.contains("faithful")) v.faithful = c.at("faithful").get<bool>();
    if (c.contains("beyond_paper")) v.beyond_paper = c.at("beyond_paper").get<bool>();
    auto methods = field(c, "methods", json::value_t::array, where);
    if (!methods) return fail(methods.error());
    for (size_t i = 0; i < (*methods)->size(); ++i) {
      const json& m = (*methods)->at(i);
      const std::string mwhere = fmt::format("{}.methods[{}]", where, i);
      MethodResult r;
      auto name = field(m, "method", json::value_t::string, mwhere);
      if (!name) return fail(name.error());
      auto method = parse_method((*name)->get<std::string>());
      if (!method) return parse_error(mwhere + ": unknown method", file);
      auto verdict = field(m, "verdict", json::value_t::string, mwhere);
      if (!verdict) return fail(verdict.error());
      auto outcome = parse_outcome((*verdict)->get<std::string>());
      if (!outcome)
        return parse_error(fmt::format("{} ({} [{}]): unknown verdict '{}' (holds, refuted, inconclusive, error or "
                                       "vacuous)", mwhere, v.claim, v.reading, (*verdict)->get<std::string>()),
                           file);
      auto scope = field(m, "scope", json::value_t::string, mwhere);
      if (!scope) return fail(scope.error());
      auto cases = field(m, "cases", json::value_t::number_unsigned, mwhere);
      if (!cases) return fail(cases.error());
      auto detail = field(m, "detail", json::value_t::string, mwhere);
      if (!detail) return fail(detail.error());
      auto mseconds = field(m, "seconds", json::value_t::number_float, mwhere);
      if (!mseconds) return fail(mseconds.error());
      auto shard = field(m, "shard", json::value_t::string, mwhere);
      if (!shard) return fail(shard.error());
      auto skipped = field(m, "skipped", json::value_t::boolean, mwhere);
      if (!skipped) return fail(skipped.error());
      r.method = *method;
      r.outcome = *outcome;
      r.scope = (*scope)->get<std::string>();
      r.cases = (*cases)->get<uint64_t>();
      r.detail = (*detail)->get<std::string>();
      r.seconds = (*mseconds)->get<double>();
      r.shard = (*shard)->get<std::string>();
      r.skipped = (*skipped)->get<bool>();
      // Optional (reports of older versions lack them): applicable equal to cases, no note.
      if (m.contains("applicable")) {
        auto applicable = field(m, "applicable", json::value_t::number_unsigned, mwhere);
        if (!applicable) return fail(applicable.error());
        r.applicable = (*applicable)->get<uint64_t>();
      }
      if (m.contains("beyond_premise")) {
        auto beyond = field(m, "beyond_premise", json::value_t::string, mwhere);
        if (!beyond) return fail(beyond.error());
        r.beyond_premise = (*beyond)->get<std::string>();
      }
      if (!m.contains("counterexample")) return parse_error(mwhere + ": missing field \"counterexample\"", file);
      if (!m.at("counterexample").is_null()) {
        auto cx = counterexample_from_json(m.at("counterexample"), mwhere + ".counterexample");
        if (!cx) return fail(cx.error());
        r.counterexample = *cx;
      }
      if (r.outcome == Outcome::kRefuted && !r.counterexample)
        return parse_error(fmt::format("{} ({} [{}]): method {} refuted without a counterexample", mwhere, v.claim,
                                       v.reading, to_string(r.method)),
                           file);
      v.methods.push_back(std::move(r));
    }
    report.verdicts.push_back(std::move(v));
  }
  return report;
}

std::string verdicts_to_junit(const std::vector<ReadingVerdict>& verdicts, Budget budget) {
  size_t failures = 0;
  double total = 0;
  for (const auto& v : verdicts) {
    failures += !v.matches;
    total += v.seconds;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"topocheck verify\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     verdicts.size(), failures, total);
  out += fmt::format("  <testsuite name=\"verify-{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     to_string(budget), verdicts.size(), failures, total);
  for (const auto& v : verdicts) {
    out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n", xml_escape(v.claim),
                       xml_escape(v.reading), v.seconds);
    out += fmt::format("      <system-out>{}: {} ({} cases; {})</system-out>\n", xml_escape(to_string(v.outcome)),
                       xml_escape(v.detail), v.cases, xml_escape(v.scope));
    if (!v.matches)
      out += fmt::format("      <failure message=\"{}\">{}</failure>\n", xml_escape(v.mismatch), xml_escape(v.detail));
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace topocheck::claims
