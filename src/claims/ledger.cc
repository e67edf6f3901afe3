#include "claims/ledger.h"

#include "corpus/corpus.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace topocheck::claims {
namespace {

using nlohmann::json;

// The line of each element of the top-level "expectations" array, in order, found by scanning
// the text (nlohmann::json keeps no positions). Strings are skipped whole, so a reason that
// mentions "claim" or a brace does not shift the count.
std::vector<int> entry_lines(const std::string& text) {
  std::vector<int> lines;
  int line = 1, depth = 0, array_depth = -1;
  bool in_string = false, escaped = false, expect_element = false;
  std::string token, last_key;
  for (char ch : text) {
    if (ch == '\n') ++line;
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
      else token += ch;
      if (!in_string && depth == 1) last_key = token;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') continue;
    if (expect_element && depth == array_depth && ch != ']') {
      lines.push_back(line);
      expect_element = false;
    }
    switch (ch) {
      case '"':
        in_string = true;
        token.clear();
        break;
      case '{':
        ++depth;
        break;
      case '[':
        ++depth;
        if (depth == 2 && array_depth < 0 && last_key == "expectations") {
          array_depth = 2;
          expect_element = true;
        }
        break;
      case '}':
      case ']':
        if (depth == array_depth && ch == ']') array_depth = -3;  // done: later arrays do not count
        --depth;
        break;
      case ',':
        if (depth == array_depth) expect_element = true;
        break;
      default:
        break;
    }
  }
  return lines;
}

// Whether `relative` names a path inside the corpus folder (not absolute, no "..").
bool inside_corpus(const std::string& relative) {
  const std::filesystem::path p(relative);
  return !relative.empty() && !p.is_absolute() && std::find(p.begin(), p.end(), "..") == p.end();
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
  } catch (const json::out_of_range& e) {
    // A number beyond a double ("3E333", found by fuzz_ledger): out_of_range (406), no position.
    return parse_error(fmt::format("invalid JSON: {}", e.what()), name);
  }
  if (!j.is_object() || !j.contains("format") || !j.at("format").is_number_integer() ||
      j.at("format").get<int>() != 1)
    return parse_error("the ledger needs \"format\": 1", name);
  if (!j.contains("expectations") || !j.at("expectations").is_array())
    return parse_error("the ledger needs an array 'expectations'", name);
  Ledger ledger;
  std::set<std::pair<std::string, std::string>> seen;
  const json& entries = j.at("expectations");
  const std::vector<int> lines = entry_lines(text);
  for (size_t i = 0; i < entries.size(); ++i) {
    const json& e = entries.at(i);
    const int line = i < lines.size() ? lines[i] : 0;
    auto fail = [&](const std::string& message) {
      return parse_error(fmt::format("expectation {}: {}", i, message), name, line);
    };
    if (!e.is_object()) return fail("must be an object");
    for (const char* key : {"claim", "reading", "verdict", "reason"})
      if (!e.contains(key) || !e.at(key).is_string())
        return fail(fmt::format("needs a string field '{}'", key));
    Expectation x;
    x.line = line;
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

Result<Ledger> load_ledger(const std::filesystem::path& file, const Registry& registry) {
  auto ledger = load_ledger(file);
  if (!ledger) return ledger.error();
  const std::string name = file.string();
  const std::filesystem::path corpus_dir = file.parent_path();
  for (const Expectation& x : ledger->expectations) {
    auto fail = [&](const std::string& message) {
      return parse_error(fmt::format("{} [{}]: {}", x.claim, x.reading, message), name, x.line);
    };
    const Claim* claim = registry.find(x.claim);
    if (!claim) return fail(fmt::format("unknown claim '{}' (see `topocheck list`)", x.claim));
    if (!claim->find_reading(x.reading))
      return fail(fmt::format("claim {} has no reading '{}' (its readings are listed by `topocheck list`)", x.claim,
                              x.reading));
    std::vector<std::pair<std::string, std::string>> named;  // (field, case)
    if (!x.corpus_case.empty()) named.emplace_back("case", x.corpus_case);
    for (const auto& [b, c] : x.case_per_budget) named.emplace_back(fmt::format("cases.{}", to_string(b)), c);
    for (const auto& [field, relative] : named) {
      if (!inside_corpus(relative))
        return fail(fmt::format("'{}' is '{}', not a path inside the corpus folder", field, relative));
      const std::filesystem::path path = corpus_dir / relative;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec))
        return fail(fmt::format("'{}' names {}, which is not a file", field, path.string()));
      auto c = corpus::load_case(path);
      if (!c) return c.error();
      if (c->kind != corpus::CaseKind::kCounterexample || c->claim != x.claim || c->reading != x.reading)
        return fail(fmt::format("'{}' names {}, which is {} of {} [{}], not a counterexample of this reading", field,
                                relative, c->kind == corpus::CaseKind::kExample ? "an example" : "a counterexample",
                                c->claim, c->reading));
    }
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
