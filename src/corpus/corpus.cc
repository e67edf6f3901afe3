#include "corpus/corpus.h"

#include "core/json_file.h"
#include "core/json_lines.h"
#include "core/output_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <unistd.h>

namespace topocheck::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Error file_error(const std::string& file, const std::string& message, int line = 0) {
  return parse_error(message, file, line);
}

// Typed getters on untrusted input: an error names the field.
Result<std::string> get_string(const json& j, const char* key, const std::string& file) {
  if (!j.contains(key)) return file_error(file, fmt::format("missing field '{}'", key));
  if (!j.at(key).is_string()) return file_error(file, fmt::format("field '{}' must be a string", key));
  return j.at(key).get<std::string>();
}

Result<json> get_object(const json& j, const char* key, const std::string& file) {
  if (!j.contains(key)) return file_error(file, fmt::format("missing field '{}'", key));
  if (!j.at(key).is_object()) return file_error(file, fmt::format("field '{}' must be an object", key));
  return j.at(key);
}

void diff_into(const json& printed, const json& computed, const std::string& pointer,
               std::vector<CellDiff>& out) {
  if (printed.is_object() && computed.is_object()) {
    for (auto it = printed.begin(); it != printed.end(); ++it) {
      const std::string p = pointer + "/" + json_pointer_token(it.key());
      if (computed.contains(it.key())) diff_into(it.value(), computed.at(it.key()), p, out);
      else out.push_back({p, it.value(), nullptr});
    }
    for (auto it = computed.begin(); it != computed.end(); ++it)
      if (!printed.contains(it.key()))
        out.push_back({pointer + "/" + json_pointer_token(it.key()), nullptr, it.value()});
    return;
  }
  if (printed.is_array() && computed.is_array()) {
    const size_t n = std::max(printed.size(), computed.size());
    for (size_t i = 0; i < n; ++i) {
      const std::string p = pointer + "/" + std::to_string(i);
      if (i >= printed.size()) out.push_back({p, nullptr, computed[i]});
      else if (i >= computed.size()) out.push_back({p, printed[i], nullptr});
      else diff_into(printed[i], computed[i], p, out);
    }
    return;
  }
  if (printed != computed) out.push_back({pointer, printed, computed});
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) { h ^= c; h *= 1099511628211ULL; }
  return h;
}

}  // namespace

json to_json(const Case& c) {
  json j;
  j["format"] = kFormatVersion;
  j["kind"] = c.kind == CaseKind::kExample ? "example" : "counterexample";
  j["claim"] = c.claim;
  j["reading"] = c.reading;
  j["params"] = c.params;
  j["input"] = c.input;
  if (c.kind == CaseKind::kCounterexample) {
    j["violation"] = c.violation;
    j["witness"] = c.witness;
    json found = {{"method", c.method}};
    if (c.seed) found["seed"] = *c.seed;
    if (!c.budget.empty()) found["budget"] = c.budget;
    j["found_by"] = found;
    j["minimized"] = c.minimized;
  } else {
    j["source"] = c.source;
    j["expected"] = c.expected;
    json errata = json::array();
    for (const Erratum& e : c.errata)
      errata.push_back({{"cell", e.cell}, {"printed", e.printed}, {"computed", e.computed},
                        {"kind", e.kind}, {"note", e.note}});
    j["errata"] = errata;
  }
  return j;
}

Result<Case> case_from_json(const json& j, const std::string& file) {
  if (!j.is_object()) return file_error(file, "a corpus case must be a JSON object");
  if (!j.contains("format")) return file_error(file, "missing field 'format'");
  if (!j.at("format").is_number_integer() || j.at("format").get<int>() != kFormatVersion)
    return file_error(file, fmt::format("field 'format' must be {}", kFormatVersion));
  Case c;
  auto kind = get_string(j, "kind", file);
  if (!kind) return kind.error();
  if (*kind == "example") c.kind = CaseKind::kExample;
  else if (*kind == "counterexample") c.kind = CaseKind::kCounterexample;
  else return file_error(file, fmt::format("field 'kind' is '{}', expected 'example' or 'counterexample'", *kind));
  auto claim = get_string(j, "claim", file);
  if (!claim) return claim.error();
  c.claim = *claim;
  auto reading = get_string(j, "reading", file);
  if (!reading) return reading.error();
  c.reading = *reading;
  auto params = get_object(j, "params", file);
  if (!params) return params.error();
  c.params = *params;
  auto input = get_object(j, "input", file);
  if (!input) return input.error();
  c.input = *input;
  if (c.kind == CaseKind::kCounterexample) {
    auto violation = get_string(j, "violation", file);
    if (!violation) return violation.error();
    c.violation = *violation;
    auto witness = get_object(j, "witness", file);
    if (!witness) return witness.error();
    c.witness = *witness;
    auto found = get_object(j, "found_by", file);
    if (!found) return found.error();
    auto method = get_string(*found, "method", file);
    if (!method) return method.error();
    c.method = *method;
    if (found->contains("seed")) {
      if (!found->at("seed").is_number_unsigned())
        return file_error(file, "field 'found_by.seed' must be a non-negative integer");
      c.seed = found->at("seed").get<uint64_t>();
    }
    if (found->contains("budget")) {
      auto budget = get_string(*found, "budget", file);
      if (!budget) return budget.error();
      c.budget = *budget;
    }
    if (!j.contains("minimized") || !j.at("minimized").is_boolean())
      return file_error(file, "field 'minimized' must be true or false");
    c.minimized = j.at("minimized").get<bool>();
  } else {
    auto source = get_string(j, "source", file);
    if (!source) return source.error();
    c.source = *source;
    if (!j.contains("expected")) return file_error(file, "missing field 'expected'");
    c.expected = j.at("expected");
    if (!j.contains("errata") || !j.at("errata").is_array())
      return file_error(file, "field 'errata' must be an array");
    for (size_t i = 0; i < j.at("errata").size(); ++i) {
      const json& e = j.at("errata").at(i);
      const std::string where = fmt::format("errata[{}]", i);
      if (!e.is_object()) return file_error(file, where + " must be an object");
      Erratum err;
      auto cell = get_string(e, "cell", file);
      if (!cell) return file_error(file, where + ": " + cell.error().message);
      err.cell = *cell;
      try {
        (void)json::json_pointer(err.cell);
      } catch (const json::exception&) {
        return file_error(file, fmt::format("{}: cell '{}' is not a JSON pointer", where, err.cell));
      }
      if (!e.contains("printed") || !e.contains("computed"))
        return file_error(file, where + ": needs 'printed' and 'computed'");
      err.printed = e.at("printed");
      err.computed = e.at("computed");
      auto k = get_string(e, "kind", file);
      if (!k) return file_error(file, where + ": " + k.error().message);
      if (*k != "typo" && *k != "reading" && *k != "ocr")
        return file_error(file, fmt::format("{}: kind '{}' is not typo, reading or ocr", where, *k));
      err.kind = *k;
      if (e.contains("note")) {
        if (!e.at("note").is_string()) return file_error(file, where + ": 'note' must be a string");
        err.note = e.at("note").get<std::string>();
      }
      c.errata.push_back(std::move(err));
    }
  }
  c.file = file;
  return c;
}

Result<Case> load_case(const fs::path& file) {
  auto j = read_json_file(file);
  if (!j) return j.error();
  return case_from_json(*j, file.string());
}

Result<std::vector<Case>> load_all(const fs::path& corpus_dir) {
  std::error_code ec;
  if (!fs::is_directory(corpus_dir, ec))
    return file_error(corpus_dir.string(), "the corpus folder does not exist");
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(corpus_dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const fs::path& p = it->path();
    if (p.extension() == ".json" && p.filename() != "ledger.json") files.push_back(p);
  }
  if (ec) return file_error(corpus_dir.string(), "cannot list the corpus: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<Case> cases;
  for (const fs::path& p : files) {
    auto c = load_case(p);
    if (!c) return c.error();
    cases.push_back(std::move(c).value());
  }
  return cases;
}

Result<fs::path> write_atomic(const fs::path& file, const std::string& content) {
  return write_file(file, content, WriteOptions{.create_folders = true});
}

fs::path counterexample_path(const fs::path& corpus_dir, const Case& c) {
  const std::string family = c.claim.substr(0, c.claim.find('.'));
  const std::string rest = c.claim.find('.') == std::string::npos ? c.claim : c.claim.substr(c.claim.find('.') + 1);
  const uint64_t h = fnv1a(c.claim + "\n" + c.reading + "\n" + c.params.dump() + "\n" + c.input.dump());
  return corpus_dir / family / rest / fmt::format("{}-{:016x}.json", c.reading, h);
}

bool same_input(const Case& a, const Case& b) {
  return a.claim == b.claim && a.reading == b.reading && a.params == b.params && a.input == b.input;
}

std::vector<CellDiff> diff_cells(const json& printed, const json& computed) {
  std::vector<CellDiff> out;
  diff_into(printed, computed, "", out);
  return out;
}

size_t count_cells(const json& printed) {
  if (printed.is_object() || printed.is_array()) {
    size_t n = 0;
    for (const json& v : printed) n += count_cells(v);
    return n;
  }
  return 1;
}

std::vector<std::string> explain_diffs(const std::vector<CellDiff>& diffs,
                                       const std::vector<Erratum>& errata) {
  std::vector<std::string> problems;
  std::vector<bool> used(errata.size(), false);
  for (const CellDiff& d : diffs) {
    bool explained = false;
    for (size_t i = 0; i < errata.size(); ++i)
      if (!used[i] && errata[i].cell == d.cell && errata[i].printed == d.printed &&
          errata[i].computed == d.computed) {
        used[i] = explained = true;
        break;
      }
    if (!explained)
      problems.push_back(fmt::format("cell {}: printed {}, computed {} (no erratum explains it)",
                                     d.cell.empty() ? "/" : d.cell, d.printed.dump(), d.computed.dump()));
  }
  for (size_t i = 0; i < errata.size(); ++i)
    if (!used[i])
      problems.push_back(fmt::format("erratum for cell {} (printed {}, computed {}) no longer matches the computation",
                                     errata[i].cell, errata[i].printed.dump(), errata[i].computed.dump()));
  return problems;
}

}  // namespace topocheck::corpus
