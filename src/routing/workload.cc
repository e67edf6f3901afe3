#include "routing/workload.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/json_file.h"
#include "network/network.h"
#include "network/rng.h"

namespace topocheck::routing {
namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "topocheck-workload";
constexpr int kVersion = 1;

// The placement draws from its own stream, so that changing the placement leaves the DAG of a
// seed unchanged and changing a DAG parameter leaves the permutation unchanged.
constexpr uint64_t kPlacementSalt = 0x706c6163656d656eULL;  // "placemen"

// ---------------------------------------------------------------------------------------------
// Problems: a message naming the field and the JSON pointer of the offending value, so that a
// file loader can turn the pointer into a line.

struct Problem {
  std::string pointer;  // "/processes/12/sends/3"; "" for the whole document
  std::string message;  // "processes[12].sends[3]: 12 is the process itself"
};

// "/processes/12/sends/3" -> "processes[12].sends[3]".
std::string field_text(const std::string& pointer) {
  std::string out;
  size_t i = 0;
  while (i < pointer.size()) {
    const size_t end = std::min(pointer.find('/', i + 1), pointer.size());
    const std::string segment = pointer.substr(i + 1, end - i - 1);
    const bool index = !segment.empty() && std::all_of(segment.begin(), segment.end(),
                                                        [](char c) { return c >= '0' && c <= '9'; });
    if (index) out += "[" + segment + "]";
    else out += (out.empty() ? "" : ".") + segment;
    i = end;
  }
  return out;
}

Problem problem(std::string pointer, const std::string& what) {
  std::string where = field_text(pointer);
  return Problem{std::move(pointer), where.empty() ? what : where + ": " + what};
}

std::string process_pointer(size_t p) { return fmt::format("/processes/{}", p); }
std::string send_pointer(size_t p, size_t k) { return fmt::format("/processes/{}/sends/{}", p, k); }

// ---------------------------------------------------------------------------------------------
// Validation (the rules of the header, checked in the order listed there).

std::optional<Problem> find_problem(const Workload& w) {
  const size_t num = w.processes.size();
  if (w.nodes == 0) return problem("/nodes", "0, but a workload is placed on at least 1 node");
  if (num == 0) return problem("/processes", "empty, but a workload has at least 1 process");
  if (num > w.nodes)
    return problem("/processes", fmt::format("{} processes but only {} nodes (one process per node)",
                                             num, w.nodes));
  std::unordered_map<uint32_t, size_t> process_on_node;
  process_on_node.reserve(num);
  for (size_t p = 0; p < num; ++p) {
    const Process& proc = w.processes[p];
    if (proc.id != p)
      return problem(process_pointer(p) + "/id",
                     fmt::format("{}, expected {} (ids are 0..P-1 in order)", proc.id, p));
    if (proc.node >= w.nodes)
      return problem(process_pointer(p) + "/node",
                     fmt::format("{} is not a node (the network has nodes 0..{})", proc.node, w.nodes - 1));
    const auto [it, fresh] = process_on_node.emplace(proc.node, p);
    if (!fresh)
      return problem(process_pointer(p) + "/node",
                     fmt::format("{} is also the node of process {}", proc.node, it->second));
  }
  std::vector<size_t> first_send_to(num, SIZE_MAX);  // per receiver: index in the current sends
  for (size_t p = 0; p < num; ++p) {
    const Process& proc = w.processes[p];
    for (size_t k = 0; k < proc.sends.size(); ++k) {
      const uint32_t q = proc.sends[k];
      if (q >= num)
        return problem(send_pointer(p, k), fmt::format("{} is not a process (ids are 0..{})", q, num - 1));
      if (q == p) return problem(send_pointer(p, k), fmt::format("{} is the process itself", q));
      if (first_send_to[q] != SIZE_MAX)
        return problem(send_pointer(p, k),
                       fmt::format("{} is sent to twice (also sends[{}])", q, first_send_to[q]));
      first_send_to[q] = k;
      if (proc.seq >= w.processes[q].seq)
        return problem(send_pointer(p, k),
                       fmt::format("the receiver {} has seq {}, not above the sender's seq {} "
                                   "(every message goes to a higher sequence number)",
                                   q, w.processes[q].seq, proc.seq));
    }
    for (uint32_t q : proc.sends) first_send_to[q] = SIZE_MAX;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Reading: typed getters that report the pointer of the offending value.

std::optional<uint32_t> as_u32(const json& v) {
  if (v.is_number_unsigned()) {
    const uint64_t x = v.get<uint64_t>();
    if (x <= std::numeric_limits<uint32_t>::max()) return static_cast<uint32_t>(x);
  } else if (v.is_number_integer()) {
    const int64_t x = v.get<int64_t>();
    if (x >= 0 && x <= int64_t{std::numeric_limits<uint32_t>::max()}) return static_cast<uint32_t>(x);
  }
  return std::nullopt;
}

std::optional<Problem> reject_unknown_fields(const json& object, const std::string& pointer,
                                             std::initializer_list<std::string_view> known) {
  for (auto it = object.begin(); it != object.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      return problem(pointer, fmt::format("unknown field '{}'", it.key()));
  return std::nullopt;
}

// Reads field `key` of `object` (at `pointer`) as an unsigned 32-bit integer into `out`.
std::optional<Problem> read_u32(const json& object, const std::string& pointer, const char* key,
                                uint32_t& out) {
  if (!object.contains(key)) return problem(pointer, fmt::format("missing field '{}'", key));
  const json& v = object.at(key);
  const auto x = as_u32(v);
  if (!x)
    return problem(pointer + "/" + key,
                   fmt::format("{} is not an unsigned 32-bit integer", v.dump()));
  out = *x;
  return std::nullopt;
}

// Reads and validates a workload document into `w`; the first problem, if any.
std::optional<Problem> read_workload(const json& j, Workload& w) {
  if (!j.is_object()) return problem("", "a workload must be a JSON object");
  if (auto p = reject_unknown_fields(j, "", {"format", "version", "name", "generator", "nodes", "processes"}))
    return *p;
  if (!j.contains("format")) return problem("", "missing field 'format'");
  if (!j.at("format").is_string() || j.at("format").get<std::string>() != kFormat)
    return problem("/format", fmt::format("{}, expected \"{}\"", j.at("format").dump(), kFormat));
  if (!j.contains("version")) return problem("", "missing field 'version'");
  if (!j.at("version").is_number_integer() || j.at("version").get<int64_t>() != kVersion)
    return problem("/version", fmt::format("{}, expected {} (the only version this build reads)",
                                           j.at("version").dump(), kVersion));
  w = Workload{};
  if (!j.contains("name")) return problem("", "missing field 'name'");
  if (!j.at("name").is_string())
    return problem("/name", fmt::format("{} is not a string", j.at("name").dump()));
  w.name = j.at("name").get<std::string>();
  if (j.contains("generator")) {
    if (!j.at("generator").is_object())
      return problem("/generator", fmt::format("{} is not an object", j.at("generator").dump()));
    w.generator = j.at("generator");
  }
  if (auto p = read_u32(j, "", "nodes", w.nodes)) return *p;
  if (!j.contains("processes")) return problem("", "missing field 'processes'");
  const json& processes = j.at("processes");
  if (!processes.is_array()) return problem("/processes", "not an array");
  w.processes.resize(processes.size());
  for (size_t p = 0; p < processes.size(); ++p) {
    const json& entry = processes.at(p);
    const std::string pointer = process_pointer(p);
    if (!entry.is_object()) return problem(pointer, fmt::format("{} is not an object", entry.dump()));
    if (auto q = reject_unknown_fields(entry, pointer, {"id", "node", "seq", "sends"})) return *q;
    Process& proc = w.processes[p];
    if (auto q = read_u32(entry, pointer, "id", proc.id)) return *q;
    if (auto q = read_u32(entry, pointer, "node", proc.node)) return *q;
    if (auto q = read_u32(entry, pointer, "seq", proc.seq)) return *q;
    if (!entry.contains("sends")) return problem(pointer, "missing field 'sends'");
    const json& sends = entry.at("sends");
    if (!sends.is_array()) return problem(pointer + "/sends", "not an array");
    proc.sends.reserve(sends.size());
    for (size_t k = 0; k < sends.size(); ++k) {
      const auto q = as_u32(sends.at(k));
      if (!q)
        return problem(send_pointer(p, k), fmt::format("{} is not a process id (an unsigned 32-bit integer)",
                                                       sends.at(k).dump()));
      proc.sends.push_back(*q);
    }
  }
  return find_problem(w);
}

// The line of the value at JSON `pointer` in `text` (well-formed JSON, already parsed), or of its
// nearest enclosing value found; 0 if none. A single token scan with a stack of containers:
// strings are skipped with their escapes, newlines counted outside and inside them. Keys are
// compared raw (a key written with escapes is not found, and then an enclosing line is used).
int line_of(std::string_view text, const std::string& pointer) {
  struct Container {
    bool object;
    bool expect_key;
    size_t index;
    std::string key;
    std::string pointer;
  };
  std::vector<Container> stack;
  int line = 1;
  int best = 0;
  size_t i = 0;
  // The pointer of a value starting now; remembers its line if it encloses the target.
  auto on_value = [&](int token_line) -> std::string {
    std::string here;
    if (!stack.empty()) {
      const Container& top = stack.back();
      here = top.pointer + "/" + (top.object ? top.key : std::to_string(top.index));
    }
    if (pointer.starts_with(here + "/")) best = token_line;
    return here;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') { ++line; ++i; continue; }
    if (c == ' ' || c == '\t' || c == '\r' || c == ':') { ++i; continue; }
    if (c == ',') {
      if (!stack.empty()) {
        if (stack.back().object) stack.back().expect_key = true;
        else ++stack.back().index;
      }
      ++i;
      continue;
    }
    if (c == '}' || c == ']') {
      if (!stack.empty()) stack.pop_back();
      ++i;
      continue;
    }
    const int token_line = line;
    if (c == '"') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != '"') {
        if (text[end] == '\\') ++end;
        else if (text[end] == '\n') ++line;
        ++end;
      }
      const std::string raw(text.substr(i + 1, std::min(end, text.size()) - i - 1));
      i = end + 1;
      if (!stack.empty() && stack.back().object && stack.back().expect_key) {
        stack.back().key = raw;
        stack.back().expect_key = false;
        continue;
      }
      if (on_value(token_line) == pointer) return token_line;
      continue;
    }
    std::string here = on_value(token_line);
    if (here == pointer) return token_line;
    if (c == '{' || c == '[') {
      stack.push_back(Container{c == '{', c == '{', 0, {}, std::move(here)});
      ++i;
      continue;
    }
    // A number or a literal: up to the next delimiter.
    while (i < text.size() && std::string_view(",]} \t\r\n").find(text[i]) == std::string_view::npos) ++i;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Generators.

// Symbolic elimination without pivoting on bitset rows (row i, bit j: a_ij != 0), n x n.
// Step k = 0..n-1: every row i > k with a_ik != 0 takes row k's columns > k (the update
// a_ij -= a_ik / a_kk * a_kj can only make a_ij nonzero where a_kj is; exact cancellation is
// ignored, as symbolic elimination does). Column k of row i is only written by steps j < k, so it
// is final when step k reads it. Returns the sends of each row k: the rows i > k with a_ik != 0
// after fill, increasing. Cost: O(n^3 / 64) word operations in the worst (dense) case.
std::vector<std::vector<uint32_t>> eliminate(uint32_t n, std::vector<std::vector<uint64_t>>& rows) {
  std::vector<std::vector<uint32_t>> sends(n);
  const size_t words = (size_t{n} + 63) / 64;
  for (uint32_t k = 0; k < n; ++k) {
    const size_t word_k = k / 64;
    const uint64_t bit_k = uint64_t{1} << (k % 64);
    // Columns > k of row k: the word holding k masked to bits above k, then whole words.
    const uint64_t above_k_in_word = ~((bit_k << 1) - 1);  // bits k%64+1 .. 63 (0 when k%64 == 63)
    for (uint32_t i = k + 1; i < n; ++i) {
      std::vector<uint64_t>& row_i = rows[i];
      if ((row_i[word_k] & bit_k) == 0) continue;
      sends[k].push_back(i);
      const std::vector<uint64_t>& row_k = rows[k];
      row_i[word_k] |= row_k[word_k] & above_k_in_word;
      for (size_t w = word_k + 1; w < words; ++w) row_i[w] |= row_k[w];
    }
  }
  return sends;
}

std::optional<Error> check_nodes(uint32_t nodes, const char* generator) {
  if (nodes == 0) return invalid_argument(fmt::format("{}: nodes must be at least 1", generator));
  if (nodes > kMaxNodes)
    return invalid_argument(fmt::format("{}: nodes is {}, at most {} (the largest network)", generator,
                                        nodes, kMaxNodes));
  return std::nullopt;
}

std::optional<Error> check_processes(uint32_t processes, uint32_t nodes, const char* generator,
                                     const char* parameter) {
  if (processes > nodes)
    return invalid_argument(fmt::format("{}: {} is {} but there are only {} nodes (one process per node)",
                                        generator, parameter, processes, nodes));
  return std::nullopt;
}

// Sets node of every process: p on node p, or on perm[p] for a seeded permutation of all nodes.
void place(Workload& w, Placement placement, uint64_t seed) {
  if (placement == Placement::kIdentity) {
    for (Process& proc : w.processes) proc.node = proc.id;
    return;
  }
  std::vector<uint32_t> perm(w.nodes);
  for (uint32_t v = 0; v < w.nodes; ++v) perm[v] = v;
  Rng rng(seed ^ kPlacementSalt);
  rng.shuffle(perm);
  for (Process& proc : w.processes) proc.node = perm[proc.id];
}

Workload skeleton(std::string name, uint32_t nodes, uint32_t processes) {
  Workload w;
  w.name = std::move(name);
  w.nodes = nodes;
  w.processes.resize(processes);
  for (uint32_t p = 0; p < processes; ++p) {
    w.processes[p].id = p;
    w.processes[p].seq = p;
  }
  return w;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

uint64_t Workload::num_messages() const {
  uint64_t total = 0;
  for (const Process& proc : processes) total += proc.sends.size();
  return total;
}

std::vector<uint32_t> Workload::in_degrees() const {
  std::vector<uint32_t> in(processes.size(), 0);
  for (const Process& proc : processes)
    for (uint32_t q : proc.sends) {
      TC_CHECK(q < in.size(), fmt::format("in_degrees: process {} sends to {}, not a process", proc.id, q));
      ++in[q];
    }
  return in;
}

std::optional<Placement> parse_placement(std::string_view s) {
  if (s == "identity") return Placement::kIdentity;
  if (s == "random") return Placement::kRandom;
  return std::nullopt;
}

std::string to_string(Placement p) { return p == Placement::kIdentity ? "identity" : "random"; }

std::vector<std::vector<uint32_t>> gauss_elimination_sends(const std::vector<std::vector<bool>>& pattern) {
  const auto n = static_cast<uint32_t>(pattern.size());
  const size_t words = (size_t{n} + 63) / 64;
  std::vector<std::vector<uint64_t>> rows(n, std::vector<uint64_t>(words, 0));
  for (uint32_t i = 0; i < n; ++i) {
    TC_CHECK(pattern[i].size() == n, fmt::format("gauss_elimination_sends: row {} has {} columns, not {}",
                                                 i, pattern[i].size(), n));
    for (uint32_t j = 0; j < n; ++j)
      if (pattern[i][j] || i == j) rows[i][j / 64] |= uint64_t{1} << (j % 64);
  }
  return eliminate(n, rows);
}

Result<Workload> gauss_workload(uint32_t nodes, const GaussParams& params) {
  if (auto e = check_nodes(nodes, "gauss")) return *e;
  const uint32_t n = params.rows == 0 ? nodes : params.rows;
  if (auto e = check_processes(n, nodes, "gauss", "rows")) return *e;
  if (!std::isfinite(params.nonzeros_per_row) || params.nonzeros_per_row < 0)
    return invalid_argument(fmt::format("gauss: nonzeros_per_row is {}, must be a finite number >= 0",
                                        params.nonzeros_per_row));
  // Each off-diagonal entry independently nonzero with probability c / (n - 1) (capped at 1), so a
  // row has c off-diagonal nonzeros on average before fill-in. Draw order: row-major, skipping
  // the diagonal, one unit() draw per entry (n (n - 1) draws).
  const double probability = n <= 1 ? 0.0 : std::min(1.0, params.nonzeros_per_row / (n - 1));
  const size_t words = (size_t{n} + 63) / 64;
  std::vector<std::vector<uint64_t>> rows(n, std::vector<uint64_t>(words, 0));
  Rng rng(params.seed);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < n; ++j)
      if (i == j || (rng.unit() < probability)) rows[i][j / 64] |= uint64_t{1} << (j % 64);
  Workload w = skeleton("gauss", nodes, n);
  std::vector<std::vector<uint32_t>> sends = eliminate(n, rows);
  for (uint32_t k = 0; k < n; ++k) w.processes[k].sends = std::move(sends[k]);
  place(w, params.placement, params.seed);
  w.generator = {{"name", "gauss"},
                 {"rows", n},
                 {"nonzeros_per_row", params.nonzeros_per_row},
                 {"placement", to_string(params.placement)},
                 {"seed", params.seed}};
  return w;
}

Result<Workload> layered_workload(uint32_t nodes, const LayeredParams& params) {
  if (auto e = check_nodes(nodes, "layered")) return *e;
  const uint32_t num = params.processes == 0 ? nodes : params.processes;
  if (auto e = check_processes(num, nodes, "layered", "processes")) return *e;
  if (params.layers == 0 || params.layers > num)
    return invalid_argument(fmt::format("layered: layers is {}, must be in 1..{} (every layer non-empty)",
                                        params.layers, num));
  if (params.fan_in == 0) return invalid_argument("layered: fan_in must be at least 1");
  // Layer l holds floor(P / L) processes, plus one for the first P mod L layers; ids run layer by
  // layer, so layer l is [start[l], start[l + 1]).
  const uint32_t layers = params.layers;
  std::vector<uint32_t> start(layers + 1, 0);
  for (uint32_t l = 0; l < layers; ++l) start[l + 1] = start[l] + num / layers + (l < num % layers ? 1 : 0);
  Workload w = skeleton("layered", nodes, num);
  Rng rng(params.seed);
  std::vector<uint32_t> previous;  // the ids of layer l - 1, partially shuffled in place
  for (uint32_t l = 1; l < layers; ++l) {
    previous.clear();
    for (uint32_t q = start[l - 1]; q < start[l]; ++q) previous.push_back(q);
    const auto m = static_cast<uint32_t>(previous.size());
    const uint32_t k = std::min(params.fan_in, m);
    // Receivers in increasing id order, so every sender's `sends` comes out increasing.
    for (uint32_t r = start[l]; r < start[l + 1]; ++r) {
      // Partial Fisher-Yates: previous[0..k) becomes a uniform k-subset (any arrangement of
      // `previous` is a fine starting point, so it is not reset between receivers).
      for (uint32_t t = 0; t < k; ++t) std::swap(previous[t], previous[t + rng.below(m - t)]);
      for (uint32_t t = 0; t < k; ++t) w.processes[previous[t]].sends.push_back(r);
    }
  }
  place(w, params.placement, params.seed);
  w.generator = {{"name", "layered"},
                 {"processes", num},
                 {"layers", layers},
                 {"fan_in", params.fan_in},
                 {"placement", to_string(params.placement)},
                 {"seed", params.seed}};
  return w;
}

Result<Workload> reduce_broadcast_workload(uint32_t nodes, const ReduceBroadcastParams& params) {
  if (auto e = check_nodes(nodes, "reduce_broadcast")) return *e;
  const uint32_t num = params.processes == 0 ? nodes : params.processes;
  if (num < 2)
    return invalid_argument(fmt::format("reduce_broadcast: processes is {}, must be at least 2", num));
  if (auto e = check_processes(num, nodes, "reduce_broadcast", "processes")) return *e;
  // R = ceil(P / 2) reducers (ids 0..R-1), B = P - R broadcasters (ids R..P-1). Binomial tree on
  // positions 0..m-1 rooted at 0: the parent of position r > 0 is r & (r - 1) (r with its lowest
  // set bit cleared). Reducer id x has position R-1-x (root: id R-1) and sends to its parent;
  // the reduce root sends to the broadcast root (id R); broadcaster id R+b (position b) sends to
  // its children b + 2^j for 2^j below the lowest set bit of b (every 2^j < B for b = 0).
  // Every message goes to a higher id, so seq = id.
  const uint32_t reducers = (num + 1) / 2;
  const uint32_t broadcasters = num - reducers;
  Workload w = skeleton("reduce_broadcast", nodes, num);
  for (uint32_t x = 0; x + 1 < reducers; ++x) {
    const uint32_t r = reducers - 1 - x;
    w.processes[x].sends.push_back(reducers - 1 - (r & (r - 1)));
  }
  w.processes[reducers - 1].sends.push_back(reducers);
  for (uint32_t b = 0; b < broadcasters; ++b) {
    // Children b + 2^j with 2^j < lowbit(b) (any 2^j for the root), increasing in j.
    const uint64_t limit = b == 0 ? uint64_t{broadcasters} : (b & (~b + 1));
    for (uint64_t step = 1; step < limit && b + step < broadcasters; step <<= 1)
      w.processes[reducers + b].sends.push_back(static_cast<uint32_t>(reducers + b + step));
  }
  place(w, params.placement, params.seed);
  w.generator = {{"name", "reduce_broadcast"},
                 {"processes", num},
                 {"placement", to_string(params.placement)},
                 {"seed", params.seed}};
  return w;
}

const std::vector<std::string>& builtin_workload_names() {
  static const std::vector<std::string> names = {"gauss", "layered", "reduce_broadcast"};
  return names;
}

Result<Workload> builtin_workload(std::string_view name, uint32_t nodes, uint64_t seed) {
  if (name == "gauss") {
    GaussParams params;
    params.seed = seed;
    return gauss_workload(nodes, params);
  }
  if (name == "layered") {
    LayeredParams params;
    params.seed = seed;
    // A network smaller than the default layer count gets one process per layer.
    params.layers = std::max<uint32_t>(1, std::min(params.layers, nodes));
    return layered_workload(nodes, params);
  }
  if (name == "reduce_broadcast") {
    ReduceBroadcastParams params;
    params.seed = seed;
    return reduce_broadcast_workload(nodes, params);
  }
  return Error{ErrorCode::kNotFound,
               fmt::format("unknown workload '{}' (known: {})", name, fmt::join(builtin_workload_names(), ", ")),
               {},
               0};
}

std::optional<std::string> validate(const Workload& w) {
  if (auto p = find_problem(w)) return p->message;
  return std::nullopt;
}

json to_json(const Workload& w) {
  json processes = json::array();
  for (const Process& proc : w.processes)
    processes.push_back({{"id", proc.id}, {"node", proc.node}, {"seq", proc.seq}, {"sends", proc.sends}});
  return {{"format", std::string(kFormat)},       {"version", kVersion}, {"name", w.name},
          {"generator", w.generator}, {"nodes", w.nodes},    {"processes", std::move(processes)}};
}

Result<Workload> workload_from_json(const json& j, const std::string& source) {
  Workload w;
  if (auto found = read_workload(j, w)) return parse_error(found->message, source);
  return w;
}

Result<Workload> load_workload(const std::filesystem::path& file) {
  const std::string name = file.string();
  auto j = read_json_file(file, "cannot read the workload file");
  if (!j) return j.error();
  Workload w;
  const auto found = read_workload(*j, w);
  if (!found) return w;
  // Only on failure: read the text again to find the line of the offending value.
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return parse_error(found->message, name, line_of(text.str(), found->pointer));
}

}  // namespace topocheck::routing
