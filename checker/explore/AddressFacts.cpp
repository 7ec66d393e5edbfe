#include "checker/explore/AddressFacts.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace patchcheck {
namespace {

// An address as base + k (k a numeral): (bvadd k B) as the simplifier
// writes it, or the term itself with k = 0.
struct Offset {
  z3::expr base;
  uint64_t k;
};

Offset offsetOf(const z3::expr& a) {
  if (a.is_app() && a.decl().decl_kind() == Z3_OP_BADD && a.num_args() == 2) {
    uint64_t k = 0;
    if (a.arg(0).is_numeral() && a.arg(0).is_numeral_u64(k)) return {a.arg(1), k};
    if (a.arg(1).is_numeral() && a.arg(1).is_numeral_u64(k)) return {a.arg(0), k};
  }
  return {a, 0};
}

bool isKind(const z3::expr& e, Z3_decl_kind k) { return e.is_app() && e.decl().decl_kind() == k; }

}  // namespace

z3::expr ApartRanges::fact() const {
  z3::context& c = a.ctx();
  unsigned w = a.get_sort().bv_size();
  return z3::ule(a + c.bv_val(n, w), b) || z3::uge(a, b + c.bv_val(m, w));
}

// [base + lo, base + hi] lies in [start, start + size) (which does not wrap):
// the same base, the offsets inside, in exact integers.
bool AddressFacts::inRange(const z3::expr& base, int64_t lo, int64_t hi, const z3::expr& start, uint64_t size) const {
  Offset s = offsetOf(start);
  unsigned w = base.get_sort().bv_size();
  if (!z3::eq(s.base, base) || w != start.get_sort().bv_size() || size >> 62) return false;
  int64_t k = w >= 64 ? int64_t(s.k) : int64_t(s.k << (64 - w)) >> (64 - w);
  auto far = [](int64_t v) { return v > (int64_t(1) << 62) || v < -(int64_t(1) << 62); };
  if (far(k) || far(lo) || far(hi)) return false;
  return k <= lo && lo <= hi && hi < k + int64_t(size);
}

// Bytes base + lo .. base + hi against the ranges, by the known facts
// alone: each range and the bytes inside the two sides of one fact.
bool AddressFacts::knownApart(const z3::expr& base, int64_t lo, int64_t hi, const Ranges& ranges) {
  z3::context& c = base.ctx();
  for (const auto& [id, r] : ranges) {
    const auto& [y, bounds] = r;
    bool covered = false;
    for (size_t f = 0; f < known_.size() && !covered; ++f) {
      const ApartRanges& k = known_[f];
      bool inside = (inRange(base, lo, hi, k.a, k.n) && inRange(y, bounds.first, bounds.second, k.b, k.m)) ||
                    (inRange(base, lo, hi, k.b, k.m) && inRange(y, bounds.first, bounds.second, k.a, k.n));
      if (!inside) continue;
      if (!unwrapped_[f]) {
        unsigned w = k.a.get_sort().bv_size();
        unwrapped_[f] = proven(z3::ult(k.a, k.a + c.bv_val(k.n, w)) && z3::ult(k.b, k.b + c.bv_val(k.m, w)));
      }
      covered = *unwrapped_[f];
    }
    if (!covered) return false;
  }
  return true;
}

bool AddressFacts::proven(const z3::expr& fact) {
  z3::expr s = fact.simplify();
  if (s.is_true()) return true;
  return decide_({}, !s) == Answer::Unsat;
}

// concat(extract(w-1, n)(B + k), 0_n) = B + (k & ~mask) when B & mask = 0.
std::optional<z3::expr> AddressFacts::alignedDown(const z3::expr& e) {
  if (e.num_args() != 2) return std::nullopt;
  z3::expr hi = e.arg(0), lo = e.arg(1);
  uint64_t low = 1;
  if (!lo.is_numeral() || !lo.is_numeral_u64(low) || low != 0 || !isKind(hi, Z3_OP_EXTRACT)) return std::nullopt;
  z3::expr x = hi.arg(0);
  unsigned w = x.get_sort().bv_size(), n = lo.get_sort().bv_size();
  if (n >= 64 || w > 64 || hi.hi() != w - 1 || hi.lo() != n) return std::nullopt;
  Offset o = offsetOf(x);
  z3::context& c = e.ctx();
  uint64_t mask = (uint64_t(1) << n) - 1;
  if (!proven((o.base & c.bv_val(mask, w)) == c.bv_val(0, w))) return std::nullopt;
  return (o.base + c.bv_val(o.k & ~mask, w)).simplify();
}

// sext(extract(m, 0)(X)) = X when X fits m + 1 signed bits: an x86
// rip-relative address, T's rel32 field read back and sign-extended (the
// placement keeps it within reach). The simplifier writes the sign
// extension as concat(extract(m, m)(X), ..., <bits m..0 of X>), the low
// bits in pieces of its own choosing; the solver confirms the whole.
std::optional<z3::expr> AddressFacts::signExtended(const z3::expr& e) {
  unsigned w = e.get_sort().bv_size();
  z3::expr first = e.arg(0);  // sext's extract(m, 0)(X), or the first sign copy
  if (!isKind(first, Z3_OP_EXTRACT) || first.arg(0).get_sort().bv_size() != w) return std::nullopt;
  z3::expr x = first.arg(0);
  unsigned m = first.hi();
  if (isKind(e, Z3_OP_SIGN_EXT)) {
    if (first.lo() != 0) return std::nullopt;
  } else {
    // w - 1 - m copies of the sign bit, then m + 1 bits
    unsigned copies = 0;
    while (copies < e.num_args() && z3::eq(e.arg(copies), e.arg(0))) ++copies;
    if (first.lo() != m || copies != w - 1 - m || copies == e.num_args()) return std::nullopt;
  }
  if (m + 1 >= w || !proven(e == x)) return std::nullopt;
  return x;
}

namespace {

// sext(inner) to `width` bits, as written or as the simplifier writes it
// (copies of inner's sign bit, then inner's pieces): the pieces, without
// the copies. Inner's sign bit is extract(top, top)(X) of the first piece's X.
std::optional<std::vector<z3::expr>> signExtendedPieces(const z3::expr& a, unsigned innerBits) {
  unsigned width = a.get_sort().bv_size();
  if (isKind(a, Z3_OP_SIGN_EXT) && a.num_args() == 1 && a.arg(0).get_sort().bv_size() == innerBits) {
    z3::expr inner = a.arg(0);
    if (isKind(inner, Z3_OP_CONCAT)) {
      std::vector<z3::expr> out;
      for (unsigned i = 0; i < inner.num_args(); ++i) out.push_back(inner.arg(i));
      return out;
    }
    return std::vector<z3::expr>{inner};
  }
  if (!isKind(a, Z3_OP_CONCAT)) return std::nullopt;
  unsigned copies = width - innerBits, n = a.num_args();
  if (n <= copies) return std::nullopt;
  std::vector<z3::expr> out;
  for (unsigned i = copies; i < n; ++i) out.push_back(a.arg(i));
  const z3::expr first = out.front();
  if (!isKind(first, Z3_OP_EXTRACT)) return std::nullopt;
  for (unsigned i = 0; i < copies; ++i) {
    const z3::expr b = a.arg(i);
    if (!isKind(b, Z3_OP_EXTRACT) || b.hi() != first.hi() || b.lo() != first.hi() || !z3::eq(b.arg(0), first.arg(0)))
      return std::nullopt;
  }
  unsigned bits = 0;
  for (const z3::expr& p : out) bits += p.get_sort().bv_size();
  if (bits != innerBits) return std::nullopt;
  return out;
}

// lui's %hi(X) << 16, sign-extended from 32 bits: X + 0x8000's bits 31..16.
std::optional<z3::expr> hiOf(const z3::expr& a) {
  auto p = signExtendedPieces(a, 32);
  if (!p || p->size() != 2) return std::nullopt;
  const z3::expr x = (*p)[0], zero = (*p)[1];
  uint64_t v = 1;
  if (!isKind(x, Z3_OP_EXTRACT) || x.hi() != 31 || x.lo() != 16 || !zero.is_numeral() || !zero.is_numeral_u64(v) ||
      v != 0 || zero.get_sort().bv_size() != 16)
    return std::nullopt;
  return x.arg(0);
}

// %lo(X), sign-extended from 16 bits: X.
std::optional<z3::expr> loOf(const z3::expr& a) {
  auto p = signExtendedPieces(a, 16);
  if (!p || p->size() != 1) return std::nullopt;
  const z3::expr x = (*p)[0];
  if (!isKind(x, Z3_OP_EXTRACT) || x.hi() != 15 || x.lo() != 0) return std::nullopt;
  return x.arg(0);
}

}  // namespace

// MIPS's %hi/%lo pair (lui, then addiu, daddiu or a load's offset): on 32
// bits, concat(extract(31, 16)(X + 0x8000), 0_16) + sext(extract(15, 0)(X))
// is extract(31, 0)(X) for every X, no fact needed. With X = H * 2^16 + L:
// when L's bit 15 is set, %hi rounds H up by one, and sign-extending L
// takes the 2^16 back off. On 64 bits (lui sign-extends, daddiu adds a
// sign-extended %lo) the sum is sext(extract(31, 0)(X)) unless the 32-bit
// sum overflows, which is X's low word in [0x7fff8000, 0x7fffffff]: that
// is asked. The simplifier knows neither, and the solver pays for them in
// every question the address is in.
std::optional<z3::expr> AddressFacts::hiLo(const z3::expr& sum) {
  unsigned width = sum.get_sort().bv_size();
  if (width != 32 && width != 64) return std::nullopt;
  z3::context& c = sum.ctx();
  std::vector<z3::expr> terms;
  for (unsigned i = 0; i < sum.num_args(); ++i) terms.push_back(sum.arg(i));
  for (size_t i = 0; i < terms.size(); ++i) {
    auto y = hiOf(terms[i]);
    if (!y) continue;
    for (size_t j = 0; j < terms.size(); ++j) {
      auto x = j == i ? std::nullopt : loOf(terms[j]);
      if (!x || x->get_sort().bv_size() < 32) continue;
      if (!z3::eq((*x + c.bv_val(0x8000, x->get_sort().bv_size())).simplify(), y->simplify())) continue;
      z3::expr low = x->get_sort().bv_size() == 32 ? *x : x->extract(31, 0);
      if (width == 64 && !proven(z3::ult(low, c.bv_val(0x7fff8000, 32)) || z3::ugt(low, c.bv_val(0x7fffffff, 32))))
        return std::nullopt;
      z3::expr out = width == 32 ? low : z3::sext(low, 32);
      for (size_t k = 0; k < terms.size(); ++k)
        if (k != i && k != j) out = out + terms[k];
      return out.simplify();
    }
  }
  return std::nullopt;
}

// select(store(...store(M, i1, v1)..., in, vn), j): past every store whose
// index differs from j, to the first one at j (its value) or to M.
std::optional<z3::expr> AddressFacts::loadPastStores(const z3::expr& e) {
  z3::expr j = e.arg(1);
  Offset at = offsetOf(j);
  z3::expr m = e.arg(0);
  std::vector<z3::expr> others;  // indexes the simplifier cannot tell from j
  std::set<unsigned> seen;       // (an exception's clobbers store at the same ones again)
  std::optional<z3::expr> value;
  unsigned skipped = 0;
  while (isKind(m, Z3_OP_STORE)) {
    z3::expr i = m.arg(1);
    if (z3::eq(i, j)) {
      value = m.arg(2);
      break;
    }
    // The same base at another offset, or two numerals: surely another byte.
    Offset o = offsetOf(i);
    bool distinct = (z3::eq(o.base, at.base) && o.k != at.k) || (i.is_numeral() && j.is_numeral());
    if (!distinct && seen.insert(Z3_get_ast_id(e.ctx(), i)).second) others.push_back(i);
    m = m.arg(0);
    ++skipped;
  }
  if (skipped == 0) return std::nullopt;
  if (!others.empty() && !apart(j, others)) return std::nullopt;
  return value ? *value : z3::select(m, j);
}

// j differs from every index in `others`. A frame's stores are many bytes
// at one base (sp - 8, sp - 16, ...): asked as one range per base, j
// outside [B + lo, B + hi], a question of a few comparisons where the
// disjunction of the equalities has one per byte. The range holds more
// than the indexes, so a range not proven apart falls back to the exact
// question.
bool AddressFacts::apart(const z3::expr& j, const std::vector<z3::expr>& others) {
  z3::context& c = j.ctx();
  unsigned w = j.get_sort().bv_size();
  auto sext = [w](uint64_t k) { return w >= 64 ? int64_t(k) : int64_t(k << (64 - w)) >> (64 - w); };
  Ranges ranges;
  for (const z3::expr& i : others) {
    Offset o = offsetOf(i);
    int64_t k = sext(o.k);
    auto [it, fresh] = ranges.try_emplace(Z3_get_ast_id(c, o.base), o.base, std::make_pair(k, k));
    if (!fresh) it->second.second = {std::min(it->second.second.first, k), std::max(it->second.second.second, k)};
  }
  Offset at = offsetOf(j);
  if (knownApart(at.base, sext(at.k), sext(at.k), ranges)) return true;
  // A word is loaded a byte at a time, each byte past the same stores: the
  // aligned 8 bytes around j are asked apart once, and j's neighbours
  // answered from that.
  Block block{Z3_get_ast_id(c, at.base), uint64_t(sext(at.k) & ~int64_t(7)), {}};
  for (const auto& [id, r] : ranges) block.ranges.push_back({id, r.second.first, r.second.second});
  auto known = blocks_.find(block);
  if (known == blocks_.end()) known = blocks_.emplace(block, blockApart(at.base, block.start, ranges)).first;
  if (known->second) return true;
  z3::expr_vector outside(c);
  bool narrower = false;  // only then is the range question worth asking first
  size_t n = 0;
  for (const auto& [id, r] : ranges) {
    const auto& [base, bounds] = r;
    auto [lo, hi] = bounds;
    uint64_t span = uint64_t(hi) - uint64_t(lo);
    if (w < 64 && span >> w) return provenApart(j, others);  // wider than the address space
    outside.push_back(z3::ugt(j - (base + c.bv_val(uint64_t(lo), w)), c.bv_val(span, w)));
    narrower = narrower || span > 0;
    ++n;
  }
  if (narrower && n < others.size() && proven(z3::mk_and(outside))) return true;
  return provenApart(j, others);
}

// Eight bytes from base + start lie outside every range. Two arcs of the
// address circle, [x, x + a] and [y, y + b], are disjoint exactly when
// neither start lies in the other: x - y > b and y - x > a (unsigned).
bool AddressFacts::blockApart(const z3::expr& base, uint64_t start, const Ranges& ranges) {
  z3::context& c = base.ctx();
  unsigned w = base.get_sort().bv_size();
  z3::expr x = base + c.bv_val(start, w);
  z3::expr_vector outside(c);
  for (const auto& [id, r] : ranges) {
    const auto& [y, bounds] = r;
    uint64_t span = uint64_t(bounds.second) - uint64_t(bounds.first);
    if (w < 64 && span >> w) return false;  // wider than the address space
    z3::expr from = y + c.bv_val(uint64_t(bounds.first), w);
    outside.push_back(z3::ugt(x - from, c.bv_val(span, w)) && z3::ugt(from - x, c.bv_val(7, w)));
  }
  return proven(z3::mk_and(outside));
}

bool AddressFacts::provenApart(const z3::expr& j, const std::vector<z3::expr>& others) {
  z3::expr_vector same(j.ctx());
  for (const z3::expr& i : others) same.push_back(i == j);
  return proven(!z3::mk_or(same));
}

z3::expr AddressFacts::rewrite(const z3::expr& e) {
  if (!e.is_app() || e.is_numeral() || e.is_const()) return e;
  unsigned id = Z3_get_ast_id(e.ctx(), e);
  if (auto it = done_.find(id); it != done_.end()) return it->second.second;
  z3::expr_vector args(e.ctx());
  bool changed = false;
  bool array = e.decl().decl_kind() == Z3_OP_STORE;  // memory keeps its stores
  for (unsigned i = 0; i < e.num_args(); ++i) {
    z3::expr a = array || (isKind(e, Z3_OP_SELECT) && i == 0) ? e.arg(i) : rewrite(e.arg(i));
    changed = changed || !z3::eq(a, e.arg(i));
    args.push_back(a);
  }
  z3::expr out = changed ? e.decl()(args).simplify() : e;
  if (isKind(out, Z3_OP_BADD))
    if (auto r = hiLo(out)) out = *r;
  if (isKind(out, Z3_OP_CONCAT)) {
    if (auto r = alignedDown(out)) out = *r;
    else if (auto r = signExtended(out)) out = *r;
  } else if (isKind(out, Z3_OP_SIGN_EXT)) {
    if (auto r = signExtended(out)) out = *r;
  }
  if (isKind(out, Z3_OP_SELECT))
    if (auto r = loadPastStores(out)) out = rewrite(*r);
  done_.emplace(id, std::make_pair(e, out));
  return out;
}

void AddressFacts::simplify(MachineState& s) {
  for (z3::expr& r : s.regs) {
    if (r.is_numeral() || r.is_const()) continue;
    z3::expr x = rewrite(r);
    if (!z3::eq(x, r)) r = x.simplify();
  }
}

}  // namespace patchcheck
