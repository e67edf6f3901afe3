// The procedure's choices (migration.h, Params; Chen and Tzeng, paper 000, Section 4): the
// defaults of an instance, their text forms as the CLI's flags and stored cases give them (errors
// name the flag), the B subcube of Section 4.2 a node belongs to, and the sequence each node's
// h-extension follows. Cost O(n) each.
#include "migration/migration.h"

#include <fmt/format.h>

#include "migration/flag_text.h"

namespace topocheck::migration {
namespace {

uint64_t bit(int i) { return uint64_t{1} << i; }

}  // namespace

std::string to_string(PickP p) { return p == PickP::kFirst ? "first" : "last"; }
std::string to_string(XReading x) { return x == XReading::kDg ? "D_g(T|p)" : "D_f(T|p)"; }

std::string to_string(SequencePolicy s) {
  switch (s) {
    case SequencePolicy::kAsGiven: return "as-given";
    case SequencePolicy::kXFirst: return "x-first";
    case SequencePolicy::kXLast: return "x-last";
  }
  return "?";
}

std::optional<SequencePolicy> parse_sequence_policy(std::string_view s) {
  for (SequencePolicy p : {SequencePolicy::kAsGiven, SequencePolicy::kXFirst, SequencePolicy::kXLast})
    if (to_string(p) == s) return p;
  return std::nullopt;
}

std::vector<int> apply_sequence_policy(SequencePolicy policy, const std::vector<int>& seq, uint64_t X) {
  if (policy == SequencePolicy::kAsGiven) return seq;
  const bool x_first = policy == SequencePolicy::kXFirst;
  std::vector<int> out;
  for (int pass = 0; pass < 2; ++pass)
    for (int d : seq)
      if ((((X >> d) & 1) != 0) == (x_first == (pass == 0))) out.push_back(d);
  return out;
}

Params default_params(const Instance& inst) {
  Params p;
  p.alpha = identity_alpha(inst);
  p.ext_sequence = dims_of(inst.DTmS);
  return p;
}

std::optional<Bars> parse_bars(std::string_view text) {
  for (Bars b : all_bars())
    if (b.to_string() == text) return b;
  return std::nullopt;
}

Result<Params> parse_params(const Instance& inst, const ParamsText& text) {
  Params p = default_params(inst);
  if (!text.alpha.empty() || inst.beta() == 0) {
    auto alpha = parse_alpha(inst, text.alpha);
    if (!alpha) return alpha.error();
    p.alpha = *alpha;
  }
  if (!text.sequence.empty()) {
    auto seq = parse_sequence(inst, text.sequence);
    if (!seq) return seq.error();
    p.ext_sequence = *seq;
  }
  if (!text.tie_break.empty()) {
    auto tie = parse_tie_break(text.tie_break);
    if (!tie) return invalid_argument(fmt::format("--tie-break: '{}' is not ascending or descending", text.tie_break));
    p.tie = *tie;
  }
  if (!text.k.empty() && text.k != "-1") {
    const auto k = parse_int(text.k);
    if (!k || *k < 0 || *k >= inst.n || !(inst.C & bit(*k)))
      return invalid_argument(fmt::format("--k: '{}' is not in C(S,T) = {}", text.k, dims_to_string(inst.C)));
    p.k = *k;
  }
  if (!text.pick_p.empty()) {
    if (text.pick_p != "first" && text.pick_p != "last") return invalid_argument("--pick-p: must be first or last");
    p.pick_p = text.pick_p == "first" ? PickP::kFirst : PickP::kLast;
  }
  if (!text.x.empty()) {
    if (text.x != "D_g" && text.x != "D_f") return invalid_argument("--x: must be D_g or D_f");
    p.x_reading = text.x == "D_g" ? XReading::kDg : XReading::kDf;
  }
  if (!text.seq_policy.empty()) {
    auto policy = parse_sequence_policy(text.seq_policy);
    if (!policy) return invalid_argument("--sequence-policy: must be as-given, x-first or x-last");
    p.seq_policy = *policy;
  }
  if (!text.bars.empty()) {
    auto bars = parse_bars(text.bars);
    if (!bars)
      return invalid_argument(fmt::format("--bars: '{}' is not f:=,g:!= / f:=,g:= / f:!=,g:!= / f:!=,g:=", text.bars));
    p.bars = *bars;
  }
  return p;
}

Result<std::vector<int>> parse_sequence(const Instance& inst, std::string_view text) {
  std::vector<int> out;
  uint64_t seen = 0;
  text = trim(text);
  if (!text.empty()) {
    for (std::string_view item : split(text, ',')) {
      const auto d = parse_int(item);
      if (!d || *d < 0 || *d >= inst.n || !(inst.DTmS & bit(*d)))
        return invalid_argument(
            fmt::format("--sequence: '{}' is not a dimension of D(T)-D(S) = {}", trim(item), dims_to_string(inst.DTmS)));
      if (seen & bit(*d)) return invalid_argument(fmt::format("--sequence: {} occurs twice", *d));
      seen |= bit(*d);
      out.push_back(*d);
    }
  }
  if (seen != inst.DTmS)
    return invalid_argument(fmt::format("--sequence: must list every dimension of D(T)-D(S) = {} once",
                                        dims_to_string(inst.DTmS)));
  return out;
}

uint64_t b_index(const Instance& inst, Node u) {
  uint64_t out = 0;
  int k = 0;
  for (int d : dims_of(inst.DS & inst.DT)) out |= ((u.bits >> d) & 1) << k++;
  return out;
}

std::vector<int> sequence_for(const Instance& inst, const Params& params, Node u) {
  if (!params.per_b_sequence.empty()) return params.per_b_sequence.at(b_index(inst, u));
  if (!params.ext_sequence.empty()) return params.ext_sequence;
  return dims_of(inst.DTmS);
}

}  // namespace topocheck::migration
