#include "claims/report.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace topocheck::claims {
namespace {

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += ' ';
        else out += c;
    }
  }
  return out;
}

std::string truncate(const std::string& s, size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 3) + "...";
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
  std::string out = fmt::format("{:<{}}  {:<{}}  {:<12}  {:<12}  {:>10}  {:>7}  {}\n", "claim", wid, "reading",
                                wread, "verdict", "expected", "cases", "seconds", "scope");
  for (const auto& v : verdicts) {
    const std::string verdict = to_string(v.outcome);
    const char* code = v.outcome == Outcome::kHolds ? "32" : v.outcome == Outcome::kRefuted ? "33" : "31";
    const std::string padded = fmt::format("{:<12}", verdict);
    out += fmt::format("{:<{}}  {:<{}}  {}  {:<12}  {:>10}  {:>7.2f}  {}\n", v.claim, wid, v.reading, wread,
                       paint(padded, code), v.expected ? to_string(*v.expected) : "(none)", v.cases,
                       v.seconds, v.scope);
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
  out += fmt::format("\n{} claim readings: {} holds, {} refuted, {} inconclusive, {} error; {}\n",
                     verdicts.size(), counts[Outcome::kHolds], counts[Outcome::kRefuted],
                     counts[Outcome::kInconclusive], counts[Outcome::kError],
                     differing == 0 ? std::string("all match the ledger")
                                    : fmt::format("{} differ from the ledger", differing));
  return out;
}

nlohmann::json verdicts_to_json(const std::vector<ReadingVerdict>& verdicts, Budget budget,
                                uint64_t seed, int jobs) {
  nlohmann::json claims = nlohmann::json::array();
  std::map<Outcome, size_t> counts;
  size_t differing = 0;
  for (const auto& v : verdicts) {
    nlohmann::json methods = nlohmann::json::array();
    for (const MethodResult& r : v.methods)
      methods.push_back({{"method", to_string(r.method)}, {"verdict", to_string(r.outcome)},
                         {"scope", r.scope}, {"cases", r.cases}, {"detail", r.detail},
                         {"seconds", r.seconds}});
    nlohmann::json j = {{"id", v.claim},
                        {"reading", v.reading},
                        {"methods", methods},
                        {"verdict", to_string(v.outcome)},
                        {"scope", v.scope},
                        {"cases", v.cases},
                        {"detail", v.detail},
                        {"expected", v.expected ? nlohmann::json(to_string(*v.expected)) : nlohmann::json()},
                        {"matches", v.matches},
                        {"mismatch", v.mismatch},
                        {"corpus_case", v.corpus_case.empty() ? nlohmann::json() : nlohmann::json(v.corpus_case)},
                        {"counterexample", v.counterexample ? counterexample_to_json(*v.counterexample) : nlohmann::json()},
                        {"seed", v.seed},
                        {"seconds", v.seconds}};
    claims.push_back(j);
    ++counts[v.outcome];
    differing += !v.matches;
  }
  return {{"budget", to_string(budget)},
          {"seed", seed},
          {"jobs", jobs},
          {"claims", claims},
          {"summary",
           {{"total", verdicts.size()}, {"matching", verdicts.size() - differing}, {"differing", differing},
            {"holds", counts[Outcome::kHolds]}, {"refuted", counts[Outcome::kRefuted]},
            {"inconclusive", counts[Outcome::kInconclusive]}, {"error", counts[Outcome::kError]}}}};
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
