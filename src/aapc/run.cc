#include "aapc/run.h"

#include <bit>

#include <fmt/format.h>

namespace topocheck::aapc {

std::string to_string(Algorithm a) {
  switch (a) {
    case Algorithm::kAuto: return "auto";
    case Algorithm::kInner: return "inner";
    case Algorithm::kA1: return "A1";
    case Algorithm::kA2: return "A2";
    case Algorithm::kAf: return "Af";
  }
  return "?";
}

Result<Algorithm> parse_algorithm(std::string_view text) {
  for (Algorithm a : {Algorithm::kAuto, Algorithm::kInner, Algorithm::kA1, Algorithm::kA2, Algorithm::kAf})
    if (to_string(a) == text) return a;
  return invalid_argument(fmt::format("--algorithm: '{}' is not auto, inner, A1, A2 or Af", text));
}

namespace {

Result<int> dimension_flag(const char* flag, std::optional<int> value, int fallback, int n) {
  const int v = value.value_or(fallback);
  if (v < 0 || v >= n) return invalid_argument(fmt::format("{}: {} is not a dimension of Q_{} (0..{})", flag, v, n, n - 1));
  return v;
}

Error with_flag(const char* flag, const Error& e) {
  // The generators name their parameter ("d: ..."); the CLI's flag is the same word with "--".
  return invalid_argument(e.message.rfind(flag + 2, 0) == 0 ? std::string("--") + e.message
                                                             : fmt::format("{}: {}", flag, e.message));
}

}  // namespace

Result<RunResult> run_aapc(const RunRequest& req) {
  const FaultSet& faults = req.faults;
  const int n = faults.n();
  const int f = static_cast<int>(faults.faulty().size());
  RunResult out;
  Algorithm a = req.algorithm;
  if (a == Algorithm::kAuto) a = f == 0 ? Algorithm::kInner : f == 1 ? Algorithm::kA1 : f == 2 ? Algorithm::kA2 : Algorithm::kAf;
  out.algorithm = a;
  switch (a) {
    case Algorithm::kAuto:
      break;
    case Algorithm::kInner: {
      if (f != 0) return invalid_argument(fmt::format("--algorithm: inner is the AAPC of a fault-free Q_n, but {} nodes are faulty", f));
      auto s = inner_aapc(n, req.model, req.options.inner);
      if (!s) return with_flag("--n", s.error());
      out.schedule = std::move(s).value();
      out.description = fmt::format("inner AAPC ({})", to_string(req.options.inner));
      out.paper_units = paper_units_optimum(n);
      out.paper_formula = "2^n - 1 (the optimum the paper states)";
      break;
    }
    case Algorithm::kA1: {
      if (f != 1) return invalid_argument(fmt::format("--algorithm: A1 takes exactly one fault, not {}", f));
      auto d = dimension_flag("--d", req.d, 0, n);
      if (!d) return d.error();
      auto s = a1(faults, *d, req.model, req.options);
      if (!s) return with_flag("--d", s.error());
      out.schedule = std::move(s).value();
      out.description = fmt::format("A1 (d = {})", *d);
      out.parameters = {{"d", *d}};
      out.paper_units = paper_units_a1(n);
      out.paper_formula = "5*2^(n-1) - 2";
      const int64_t h = int64_t{1} << (n - 1);
      out.paper_steps = {{"step 1", h}, {"step 2", h - 1}, {"step 3", h - 1}, {"step 4", h}, {"step 5", h}};
      break;
    }
    case Algorithm::kA2: {
      if (f != 2) return invalid_argument(fmt::format("--algorithm: A2 takes exactly two faults, not {}", f));
      const NodeId diff = faults.faulty()[0] ^ faults.faulty()[1];
      auto d = dimension_flag("--d", req.d, std::bit_width(diff) - 1, n);
      if (!d) return d.error();
      const int other = *d == 0 ? 1 : 0;
      auto d1 = dimension_flag("--d1", req.d1, other, n);
      if (!d1) return d1.error();
      auto d2 = dimension_flag("--d2", req.d2, other, n);
      if (!d2) return d2.error();
      auto s = a2(faults, *d, *d1, *d2, req.model, req.options);
      if (!s) return with_flag("--d", s.error());
      out.schedule = std::move(s).value();
      out.description = fmt::format("A2 (d = {}, d1 = {}, d2 = {})", *d, *d1, *d2);
      out.parameters = {{"d", *d}, {"d1", *d1}, {"d2", *d2}, {"frame", to_string(req.options.frame)}};
      out.paper_units = paper_units_a2(n);
      out.paper_formula = "5*2^(n-1) + n - 1";
      break;
    }
    case Algorithm::kAf: {
      if (f + 1 > n) return invalid_argument(fmt::format("--algorithm: Af needs f + 1 <= n, but f = {} in Q_{}", f, n));
      AfPartition p;
      if (req.dims) {
        p.dims = *req.dims;
        if (!req.d) return invalid_argument("--d: required with --dims");
        p.d = *req.d;
      } else {
        auto found = find_af_partition(faults);
        if (!found) return invalid_argument(fmt::format("--faults: no A_f partition exists for {} in Q_{} (see aapc.sec2.af_precondition)", faults.to_string(), n));
        p = *found;
        if (req.d) p.d = *req.d;
      }
      auto s = af(faults, p.dims, p.d, req.model, req.options);
      if (!s) return with_flag("--dims", s.error());
      out.schedule = std::move(s).value();
      out.description = fmt::format("Af (D = {}, d = {})", dims_to_string(p.dims), p.d);
      out.parameters = {{"dims", dims_to_list(p.dims)}, {"d", p.d}, {"frame", to_string(req.options.frame)}};
      out.paper_units = paper_units_af(n, f);
      out.paper_formula = "(5*2^f - 2)*2^(n-(f+1))";
      break;
    }
  }
  if (!req.options.order.is_default()) {
    out.parameters["order"] = req.options.order.seed;
    out.description += fmt::format(" [list order {}]", req.options.order.seed);
  }
  return out;
}

}  // namespace topocheck::aapc
