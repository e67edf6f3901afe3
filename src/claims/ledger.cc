#include "claims/ledger.h"

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace topocheck::claims {
namespace {

using nlohmann::json;

// The line of the n-th occurrence of "claim" in the text, for error messages (0: unknown).
int line_of_entry(const std::string& text, size_t entry) {
  size_t pos = 0;
  for (size_t k = 0; k <= entry; ++k) {
    pos = text.find("\"claim\"", pos);
    if (pos == std::string::npos) return 0;
    if (k < entry) ++pos;
  }
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

}  // namespace

const Expectation* Ledger::find(const std::string& claim, const std::string& reading) const {
  for (const Expectation& e : expectations)
    if (e.claim == claim && e.reading == reading) return &e;
  return nullptr;
}

Result<Ledger> load_ledger(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::ifstream in(file);
  if (!in) return parse_error("cannot read the ledger", name);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    const size_t upto = std::min<size_t>(e.byte, text.size());
    return parse_error(fmt::format("invalid JSON: {}", e.what()), name,
                       1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(upto), '\n')));
  }
  if (!j.is_object() || !j.contains("format") || !j.at("format").is_number_integer() ||
      j.at("format").get<int>() != 1)
    return parse_error("the ledger needs \"format\": 1", name);
  if (!j.contains("expectations") || !j.at("expectations").is_array())
    return parse_error("the ledger needs an array 'expectations'", name);
  Ledger ledger;
  std::set<std::pair<std::string, std::string>> seen;
  const json& entries = j.at("expectations");
  for (size_t i = 0; i < entries.size(); ++i) {
    const json& e = entries.at(i);
    const int line = line_of_entry(text, i);
    auto fail = [&](const std::string& message) {
      return parse_error(fmt::format("expectation {}: {}", i, message), name, line);
    };
    if (!e.is_object()) return fail("must be an object");
    for (const char* key : {"claim", "reading", "verdict", "reason"})
      if (!e.contains(key) || !e.at(key).is_string())
        return fail(fmt::format("needs a string field '{}'", key));
    Expectation x;
    x.claim = e.at("claim").get<std::string>();
    x.reading = e.at("reading").get<std::string>();
    x.reason = e.at("reason").get<std::string>();
    if (x.reason.empty()) return fail("the reason is empty");
    auto verdict = parse_outcome(e.at("verdict").get<std::string>());
    if (!verdict) return fail(fmt::format("unknown verdict '{}'", e.at("verdict").get<std::string>()));
    x.verdict = *verdict;
    if (e.contains("budgets")) {
      if (!e.at("budgets").is_object()) return fail("'budgets' must be an object");
      for (auto it = e.at("budgets").begin(); it != e.at("budgets").end(); ++it) {
        auto b = parse_budget(it.key());
        if (!b) return fail(fmt::format("unknown budget '{}'", it.key()));
        if (!it.value().is_string()) return fail("budget verdicts must be strings");
        auto o = parse_outcome(it.value().get<std::string>());
        if (!o) return fail(fmt::format("unknown verdict '{}'", it.value().get<std::string>()));
        x.per_budget[*b] = *o;
      }
    }
    if (e.contains("case")) {
      if (!e.at("case").is_string()) return fail("'case' must be a string");
      x.corpus_case = e.at("case").get<std::string>();
    }
    if (e.contains("cases")) {
      if (!e.at("cases").is_object()) return fail("'cases' must be an object of budget: case");
      for (auto it = e.at("cases").begin(); it != e.at("cases").end(); ++it) {
        auto b = parse_budget(it.key());
        if (!b) return fail(fmt::format("'cases': unknown budget '{}'", it.key()));
        if (!it.value().is_string()) return fail("'cases': each case must be a string");
        x.case_per_budget[*b] = it.value().get<std::string>();
      }
    }
    // A refutation is pinned to its witness: verify checks that case, not the whole corpus.
    for (Budget b : {Budget::kQuick, Budget::kStandard, Budget::kDeep})
      if (x.at(b) == Outcome::kRefuted && x.case_at(b).empty())
        return fail(fmt::format("{} [{}] is expected refuted at budget {} but names no 'case' (the stored "
                                "counterexample, relative to the corpus folder)",
                                x.claim, x.reading, to_string(b)));
    if (!seen.insert({x.claim, x.reading}).second)
      return fail(fmt::format("duplicate expectation for {} [{}]", x.claim, x.reading));
    ledger.expectations.push_back(std::move(x));
  }
  return ledger;
}

std::vector<std::string> stale_expectations(const Ledger& ledger, const Registry& registry) {
  std::vector<std::string> out;
  for (const Expectation& e : ledger.expectations) {
    const Claim* c = registry.find(e.claim);
    if (!c) out.push_back(fmt::format("the ledger names unknown claim {}", e.claim));
    else if (!c->find_reading(e.reading))
      out.push_back(fmt::format("the ledger names unknown reading {} of {}", e.reading, e.claim));
  }
  return out;
}

}  // namespace topocheck::claims
