// Alg4EncodingEvaluator (smt/metacube_smt.h): the Metacube encoding evaluated at concrete inputs,
// so that the tests can check, pair by pair, that the formulas the solver is given ARE Algorithm
// 4's paths and the checkers' predicates. Two engines: Z3's model evaluation, and a compiled
// ground evaluator (Compiled) that runs the same term DAG on uint64 values about 100 times faster.
// Preconditions: s != t, addresses of MC(k, m), options without an encoding gap (TC_CHECK).
// Cost: the formulas of a split are built and compiled once (cached); then O(terms) per pair.
#include "smt/metacube_smt.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "smt/metacube_decision.h"

namespace topocheck::smt {

using metacube::Alg4Options;
using metacube::Metacube;
using metacube::Thm2Part;
using namespace metacube_encoding;

namespace {

// A compiled ground evaluator of the terms the encoding builds: the DAG below some roots in
// topological order, each operator applied to uint64 values (every bit-vector here is at most 64
// bits wide; Booleans are 0 / 1). It evaluates the very terms the solver is given, about 100 times
// faster than Z3's evaluator (which is what makes every pair of MC(2,2) affordable); tests check
// it against Z3's model evaluation. An operator it does not know is an error at compile time.
class Compiled {
 public:
  Compiled(const std::vector<z3::expr>& roots, const std::vector<z3::expr>& vars) {
    for (size_t x = 0; x < vars.size(); ++x) var_index_[vars[x].id()] = x;
    for (const z3::expr& r : roots) roots_.push_back(compile(r.ctx(), r));
  }
  const std::optional<std::string>& error() const { return error_; }
  // The roots' values for the variables' values (in the order given to the constructor).
  std::vector<uint64_t> run(const std::vector<uint64_t>& var_values) {
    for (size_t x = 0; x < code_.size(); ++x) values_[x] = step(code_[x], var_values);
    std::vector<uint64_t> out;
    out.reserve(roots_.size());
    for (uint32_t r : roots_) out.push_back(values_[r]);
    return out;
  }

 private:
  struct Instr {
    Z3_decl_kind op;
    unsigned width;      // result width (1 for Booleans)
    uint32_t first, count;  // arguments: args_[first .. first + count)
    uint64_t imm = 0;    // numeral / variable index / extract's low bit
    unsigned imm2 = 0;   // extract's width
  };
  static uint64_t mask(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

  // Iterative post-order over the DAG, on the C API (borrowed references: the roots keep every
  // sub-term alive, and no reference counting per visit).
  uint32_t compile(z3::context& ctx, const z3::expr& root) {
    Z3_context c = ctx;
    std::vector<std::pair<Z3_ast, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [e, expanded] = stack.back();
      stack.pop_back();
      const unsigned id = Z3_get_ast_id(c, e);
      if (index_.count(id)) continue;
      const bool app = Z3_get_ast_kind(c, e) == Z3_APP_AST || Z3_get_ast_kind(c, e) == Z3_NUMERAL_AST;
      const Z3_app a = app ? Z3_to_app(c, e) : nullptr;
      const unsigned n_args = app ? Z3_get_app_num_args(c, a) : 0;
      if (!expanded && n_args > 0) {
        stack.push_back({e, true});
        for (unsigned x = 0; x < n_args; ++x) stack.push_back({Z3_get_app_arg(c, a, x), false});
        continue;
      }
      Instr in{Z3_OP_TRUE, 1, static_cast<uint32_t>(args_.size()), n_args, 0, 0};
      const Z3_sort sort = Z3_get_sort(c, e);
      const Z3_sort_kind kind = Z3_get_sort_kind(c, sort);
      if (!app || (kind != Z3_BOOL_SORT && kind != Z3_BV_SORT)) {
        fail(ctx, e);
      } else {
        const Z3_func_decl decl = Z3_get_app_decl(c, a);
        in.op = Z3_get_decl_kind(c, decl);
        in.width = kind == Z3_BV_SORT ? Z3_get_bv_sort_size(c, sort) : 1;
        for (unsigned x = 0; x < n_args; ++x) args_.push_back(index_.at(Z3_get_ast_id(c, Z3_get_app_arg(c, a, x))));
        switch (in.op) {
          case Z3_OP_BNUM: {
            uint64_t v = 0;
            if (!Z3_get_numeral_uint64(c, e, &v)) fail(ctx, e);
            in.imm = v;
            break;
          }
          case Z3_OP_UNINTERPRETED: {
            auto it = var_index_.find(id);
            if (it == var_index_.end() || n_args != 0) fail(ctx, e);
            else in.imm = it->second;
            break;
          }
          case Z3_OP_EXTRACT:
            in.imm = static_cast<uint64_t>(Z3_get_decl_int_parameter(c, decl, 1));
            in.imm2 = in.width;
            break;
          case Z3_OP_TRUE: case Z3_OP_FALSE: case Z3_OP_EQ: case Z3_OP_DISTINCT: case Z3_OP_ITE:
          case Z3_OP_AND: case Z3_OP_OR: case Z3_OP_NOT: case Z3_OP_XOR: case Z3_OP_IMPLIES:
          case Z3_OP_BNOT: case Z3_OP_BAND: case Z3_OP_BOR: case Z3_OP_BXOR: case Z3_OP_BADD:
          case Z3_OP_BSUB: case Z3_OP_BNEG: case Z3_OP_BMUL: case Z3_OP_CONCAT: case Z3_OP_ZERO_EXT:
          case Z3_OP_ULEQ: case Z3_OP_ULT: case Z3_OP_UGEQ: case Z3_OP_UGT:
            break;
          default: fail(ctx, e);
        }
        if (in.width > 64) fail(ctx, e);
      }
      index_[id] = static_cast<uint32_t>(code_.size());
      code_.push_back(in);
      values_.push_back(0);
    }
    return index_.at(Z3_get_ast_id(c, root));
  }
  void fail(z3::context& ctx, Z3_ast e) {
    if (!error_)
      error_ = fmt::format("the compiled evaluator does not know the term {}",
                           z3::expr(ctx, e).to_string().substr(0, 200));
  }

  uint64_t step(const Instr& in, const std::vector<uint64_t>& vars) const {
    const uint32_t* args = args_.data() + in.first;
    auto arg = [&](uint32_t x) { return values_[args[x]]; };
    const uint64_t w = mask(in.width);
    uint64_t r = 0;
    switch (in.op) {
      case Z3_OP_BNUM: return in.imm;
      case Z3_OP_UNINTERPRETED: return vars[in.imm] & w;
      case Z3_OP_TRUE: return 1;
      case Z3_OP_FALSE: return 0;
      case Z3_OP_EQ: return arg(0) == arg(1);
      case Z3_OP_DISTINCT:
        for (uint32_t a = 0; a < in.count; ++a)
          for (uint32_t b = a + 1; b < in.count; ++b)
            if (arg(a) == arg(b)) return 0;
        return 1;
      case Z3_OP_ITE: return arg(0) ? arg(1) : arg(2);
      case Z3_OP_AND:
        for (uint32_t a = 0; a < in.count; ++a)
          if (!arg(a)) return 0;
        return 1;
      case Z3_OP_OR:
        for (uint32_t a = 0; a < in.count; ++a)
          if (arg(a)) return 1;
        return 0;
      case Z3_OP_NOT: return !arg(0);
      case Z3_OP_XOR:
        for (uint32_t a = 0; a < in.count; ++a) r ^= arg(a);
        return r;
      case Z3_OP_IMPLIES: return !arg(0) || arg(1);
      case Z3_OP_BNOT: return ~arg(0) & w;
      case Z3_OP_BAND:
        r = w;
        for (uint32_t a = 0; a < in.count; ++a) r &= arg(a);
        return r;
      case Z3_OP_BOR:
        for (uint32_t a = 0; a < in.count; ++a) r |= arg(a);
        return r;
      case Z3_OP_BXOR:
        for (uint32_t a = 0; a < in.count; ++a) r ^= arg(a);
        return r;
      case Z3_OP_BADD:
        for (uint32_t a = 0; a < in.count; ++a) r += arg(a);
        return r & w;
      case Z3_OP_BSUB: return (arg(0) - arg(1)) & w;
      case Z3_OP_BNEG: return (~arg(0) + 1) & w;
      case Z3_OP_BMUL:
        r = 1;
        for (uint32_t a = 0; a < in.count; ++a) r *= arg(a);
        return r & w;
      case Z3_OP_CONCAT:
        for (uint32_t a = 0; a < in.count; ++a) {
          const unsigned aw = code_[args[a]].width;
          r = (aw >= 64 ? 0 : r << aw) | arg(a);
        }
        return r & w;
      case Z3_OP_EXTRACT: return (arg(0) >> in.imm) & mask(in.imm2);
      case Z3_OP_ZERO_EXT: return arg(0);
      case Z3_OP_ULEQ: return arg(0) <= arg(1);
      case Z3_OP_ULT: return arg(0) < arg(1);
      case Z3_OP_UGEQ: return arg(0) >= arg(1);
      case Z3_OP_UGT: return arg(0) > arg(1);
      default: return 0;  // unreachable: compile() rejects other operators
    }
  }

  std::unordered_map<unsigned, size_t> var_index_;
  std::unordered_map<unsigned, uint32_t> index_;
  std::vector<Instr> code_;
  std::vector<uint32_t> args_;
  std::vector<uint64_t> values_;
  std::vector<uint32_t> roots_;
  std::optional<std::string> error_;
};

// The formulas of one split as a list of roots: [precondition, violation of each part (or the
// commutation violation)], then per path, per slot: present, node.
struct EvalSplit {
  std::vector<z3::expr> roots;
  std::vector<unsigned> widths;    // 1 for Booleans
  std::vector<size_t> slot_count;  // per path
  z3::expr packed;                 // every root as a bit-vector, concatenated (for Z3's evaluator)
  std::unique_ptr<Compiled> compiled, compiled_pre;  // all roots; the precondition alone
};

}  // namespace

struct Alg4EncodingEvaluator::Impl {
  Impl(int k, int m, const Alg4Options& o, Engine e)
      : mc(make_mc(k, m, "Alg4EncodingEvaluator")), options(o), engine(e), vars(ctx, mc), sp(ctx, mc),
        splits(all_splits(mc, o)) {
    TC_CHECK(!alg4_encoding_gap(o), "Alg4EncodingEvaluator: options not encoded");
  }
  Metacube mc;
  Alg4Options options;
  Engine engine;
  z3::context ctx;
  Vars vars;
  Space sp;
  std::vector<Split> splits;
  std::map<std::pair<size_t, bool>, EvalSplit> cache;  // (split, commutation) -> formulas
  std::unique_ptr<EvalSplit> edge;
  std::vector<z3::expr> edge_vars;

  EvalSplit& eval_split(size_t x, bool commutation) {
    auto it = cache.find({x, commutation});
    if (it != cache.end()) return it->second;
    EvalSplit e{{}, {}, {}, ctx.bool_val(false), nullptr, nullptr};
    auto add_root = [&](const z3::expr& r) {
      e.roots.push_back(r);
      e.widths.push_back(r.is_bool() ? 1 : r.get_sort().bv_size());
    };
    if (commutation) {
      const Problem problem{Kind::kCommutes, Thm2Part::kValid, options, false};  // a free
      const SplitEncoding enc(sp, problem, splits[x], vars);
      add_root(enc.pre);
      add_root(enc.whole());
    } else {
      const SplitEncoding enc(sp, Problem{Kind::kThm2, Thm2Part::kValid, options}, splits[x], vars);
      add_root(enc.pre);
      // Each part's violation as the solver sees it: the groups' disjunction under the precondition.
      for (Thm2Part part : {Thm2Part::kValid, Thm2Part::kDisjoint, Thm2Part::kLength, Thm2Part::kCaseBound})
        add_root(enc.whole(part));
      for (const SymPath& p : enc.paths) {
        e.slot_count.push_back(p.size());
        for (const Slot& slot : p) {
          add_root(slot.present);
          add_root(slot.node);
        }
      }
    }
    z3::expr_vector bits(ctx);
    for (const z3::expr& r : e.roots) bits.push_back(r.is_bool() ? z3::ite(r, sp.one_bit(), ctx.bv_val(0, 1)) : r);
    e.packed = bits.size() == 1 ? bits[0] : z3::concat(bits);
    if (engine == Engine::kCompiled) {
      const std::vector<z3::expr> variables{vars.sm, vars.tm, vars.am};
      e.compiled = std::make_unique<Compiled>(e.roots, variables);
      e.compiled_pre = std::make_unique<Compiled>(std::vector<z3::expr>{e.roots[0]}, variables);
    }
    return cache.emplace(std::pair{x, commutation}, std::move(e)).first->second;
  }

  // Every root's value at sM, tM, aM.
  Result<std::vector<uint64_t>> run(EvalSplit& e, uint64_t sm, uint64_t tm, uint64_t am) {
    if (engine == Engine::kCompiled) {
      if (e.compiled->error()) return Error{ErrorCode::kInternal, *e.compiled->error(), {}, 0};
      return e.compiled->run({sm, tm, am});
    }
    const unsigned w = static_cast<unsigned>(mc.m() * mc.h());
    z3::model model(ctx);
    for (auto [var, value] : {std::pair{vars.sm, sm}, {vars.tm, tm}, {vars.am, am}}) {
      z3::func_decl decl = var.decl();
      z3::expr v = ctx.bv_val(value, w);
      model.add_const_interp(decl, v);
    }
    std::string bits;
    if (!model.eval(e.packed, true).as_binary(bits))
      return Error{ErrorCode::kInternal, "the encoding does not evaluate to a constant", {}, 0};
    size_t total = 0;
    for (unsigned x : e.widths) total += x;
    if (bits.size() < total) bits.insert(0, total - bits.size(), '0');
    if (bits.size() != total) return Error{ErrorCode::kInternal, "the encoding evaluates to a wrong width", {}, 0};
    std::vector<uint64_t> out;
    size_t pos = 0;
    for (unsigned x : e.widths) {
      uint64_t v = 0;
      for (unsigned q = 0; q < x; ++q) v = (v << 1) | (bits[pos++] == '1' ? 1 : 0);
      out.push_back(v);
    }
    return out;
  }

  uint64_t low(Node u) const { return u.bits & ((uint64_t{1} << (mc.m() * mc.h())) - 1); }

  // The split of (s, t) whose precondition holds (exactly one must), and its root values.
  Result<std::pair<size_t, std::vector<uint64_t>>> values(Node s, Node t, uint64_t am, bool commutation) {
    std::optional<size_t> chosen;
    for (size_t x = 0; x < splits.size(); ++x) {
      if (splits[x].cs != mc.class_of(s) || splits[x].ct != mc.class_of(t)) continue;
      EvalSplit& e = eval_split(x, commutation);
      bool holds = false;
      if (engine == Engine::kCompiled) {
        if (e.compiled_pre->error()) return Error{ErrorCode::kInternal, *e.compiled_pre->error(), {}, 0};
        holds = e.compiled_pre->run({low(s), low(t), am})[0] != 0;
      } else {
        auto v = run(e, low(s), low(t), am);
        if (!v) return v.error();
        holds = (*v)[0] != 0;
      }
      if (!holds) continue;
      if (chosen) return Error{ErrorCode::kInternal, "two split preconditions hold", {}, 0};
      chosen = x;
    }
    if (!chosen) return Error{ErrorCode::kInternal, "no split precondition holds", {}, 0};
    auto v = run(eval_split(*chosen, commutation), low(s), low(t), am);
    if (!v) return v.error();
    return std::pair{*chosen, std::move(*v)};
  }
};

Alg4EncodingEvaluator::Alg4EncodingEvaluator(int k, int m, const Alg4Options& options, Engine engine)
    : impl_(std::make_unique<Impl>(k, m, options, engine)) {}
Alg4EncodingEvaluator::~Alg4EncodingEvaluator() = default;

Result<Alg4EncodingEvaluator::Value> Alg4EncodingEvaluator::at(Node s, Node t) {
  Impl& x = *impl_;
  TC_CHECK(x.mc.contains(s) && x.mc.contains(t) && s != t, "Alg4EncodingEvaluator::at: bad s, t");
  try {
    auto found = x.values(s, t, 0, false);
    if (!found) return found.error();
    const auto& [split, v] = *found;
    const EvalSplit& e = x.eval_split(split, false);
    Value value;
    value.case_number = x.splits[split].case_number;
    for (size_t p = 0; p < 4; ++p) value.violation[p] = v[1 + p] != 0;
    size_t pos = 5;
    for (size_t count : e.slot_count) {
      Path path;
      for (size_t q = 0; q < count; ++q, pos += 2)
        if (v[pos]) path.nodes.push_back(Node{v[pos + 1], x.mc.width()});
      value.paths.push_back(std::move(path));
    }
    return value;
  } catch (const z3::exception& e) {
    return Error{ErrorCode::kInternal, fmt::format("Z3 error: {}", e.msg()), {}, 0};
  }
}

Result<bool> Alg4EncodingEvaluator::commutation_violation(Node s, Node t, Node a) {
  Impl& x = *impl_;
  TC_CHECK(x.mc.contains(s) && x.mc.contains(t) && s != t && x.mc.contains(a) && x.mc.class_of(a) == 0,
           "commutation_violation: bad s, t, a");
  try {
    auto found = x.values(s, t, a.bits, true);
    if (!found) return found.error();
    return found->second[1] != 0;
  } catch (const z3::exception& e) {
    return Error{ErrorCode::kInternal, fmt::format("Z3 error: {}", e.msg()), {}, 0};
  }
}

Result<bool> Alg4EncodingEvaluator::is_edge(Node u, Node v) {
  Impl& x = *impl_;
  TC_CHECK(x.mc.contains(u) && x.mc.contains(v), "is_edge: bad u, v");
  try {
    const unsigned n = static_cast<unsigned>(x.mc.width());
    // The edge predicate over two full addresses: u is sM's slot, v tM's (widened to n bits).
    if (!x.edge) {
      x.edge = std::make_unique<EvalSplit>(EvalSplit{{}, {}, {}, x.ctx.bool_val(false), nullptr, nullptr});
      const z3::expr eu = x.ctx.bv_const("u", n), ev = x.ctx.bv_const("v", n);
      x.edge->roots.push_back(x.sp.is_edge(eu, ev));
      x.edge->widths.push_back(1);
      x.edge->packed = z3::ite(x.edge->roots[0], x.sp.one_bit(), x.ctx.bv_val(0, 1));
      x.edge->compiled = std::make_unique<Compiled>(x.edge->roots, std::vector<z3::expr>{eu, ev});
      x.edge_vars = {eu, ev};
    }
    if (x.engine == Engine::kCompiled) {
      if (x.edge->compiled->error()) return Error{ErrorCode::kInternal, *x.edge->compiled->error(), {}, 0};
      return x.edge->compiled->run({u.bits, v.bits})[0] != 0;
    }
    z3::model model(x.ctx);
    for (auto [var, value] : {std::pair{x.edge_vars[0], u.bits}, {x.edge_vars[1], v.bits}}) {
      z3::func_decl decl = var.decl();
      z3::expr val = x.ctx.bv_val(value, n);
      model.add_const_interp(decl, val);
    }
    const z3::expr r = model.eval(x.edge->roots[0], true);
    if (!r.is_true() && !r.is_false()) return Error{ErrorCode::kInternal, "is_edge is not constant", {}, 0};
    return r.is_true();
  } catch (const z3::exception& e) {
    return Error{ErrorCode::kInternal, fmt::format("Z3 error: {}", e.msg()), {}, 0};
  }
}

}  // namespace topocheck::smt
