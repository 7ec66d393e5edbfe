#include "checker/explore/Scan.h"

#include <elf.h>

#include <algorithm>
#include <optional>
#include <set>

#include "checker/explore/ObjectView.h"
#include "checker/spec/ScanSpec.h"
#include "checker/spec/SpecTarget.h"
#include "encoder/Hex.h"
#include "encoder/Isa.h"
#include "encoder/IsaRegistry.h"

namespace patchcheck {

unsigned ObjectScan::failures() const {
  return unsigned(std::count_if(findings.begin(), findings.end(), [](const ScanFinding& f) { return !f.note; }));
}

namespace {

std::string byteHex(uint8_t b) {
  const char* d = "0123456789abcdef";
  return {d[b >> 4], d[b & 15]};
}

bool startsWith(const std::string& s, std::string_view p) { return s.compare(0, p.size(), p) == 0; }
bool isExitText(const std::string& s) { return s == ".exit.text" || startsWith(s, ".exit.text.") || s == ".text.exit"; }
bool isInitText(const std::string& s) { return s == ".init.text" || startsWith(s, ".init.text.") || s == ".text.init"; }

// A spec as the scan uses it for one object: its target (the object's
// byte order), where F lies from rec->ip, and its states assembled at a
// symbolic F (relocatable objects compare fields as relocations).
struct SpecShape {
  const Spec* spec = nullptr;
  ScanSpec scan;
  Target target;
  unsigned before = 0;  // data bytes before F
  unsigned code = 0;    // patched bytes from F
  int64_t fAt = 0;      // F's address in the assembled states (0 for a symbolic F)
  std::vector<std::pair<const StateSpec*, Program>> states;  // compiled first
};

// The relocations of a section that let the linker move or rewrite
// bytes (the plug-in's linkerEdit), with where each lies.
template <typename Visit>
void forEachLinkerEdit(const ObjectView& o, unsigned section, Visit visit) {
  const PlacedRelocation* previous = nullptr;
  for (const PlacedRelocation& r : o.relocations(section)) {
    const ObjectRelocation* paired = previous && previous->offset == r.offset ? &previous->relocation : nullptr;
    if (auto e = o.code().linkerEdit(r.relocation, paired))
      if (!visit(r, *e)) return;
    previous = &r;
  }
}

// The alignment an object guarantees a place: its offset's within a
// section aligned to sh_addralign (relocatable), or the address's. In a
// relocatable object the linker may still delete bytes before it (RISC-V
// relaxation): then only the last alignment padding before the place
// counts, and after a deletion of unknown size nothing does.
uint64_t guaranteedAlign(const ObjectView& o, const Place& p) {
  uint64_t a = o.elf().relocatable() ? p.offset : o.addressOf(p);
  uint64_t limit = 1ull << 63;
  if (o.elf().relocatable()) {
    limit = std::max<uint64_t>(o.elf().sections[p.section].align, 1);
    uint64_t sectionAlign = limit;
    forEachLinkerEdit(o, p.section, [&](const PlacedRelocation& r, const ObjectCode::LinkerEdit& e) {
      if (r.offset >= p.offset) return false;
      uint64_t end = r.offset + e.bytes;
      if (e.aligns && end <= p.offset) a = p.offset - end, limit = std::min(e.aligns, sectionAlign);
      else limit = 1;
      return true;
    });
  }
  uint64_t low = a ? (a & (~a + 1)) : (1ull << 63);
  return std::min(low, limit);
}

class Scanner {
 public:
  Scanner(const ElfObject& elf, const ObjectCode& code, std::vector<SpecShape> shapes)
      : view_(elf, code), shapes_(std::move(shapes)) {
    out_.file = elf.path;
    if (!elf.relocatable())
      for (const ElfSymbol& sym : elf.symbols)
        if (sym.section != SHN_UNDEF && !sym.name.empty()) linkedSymbols_.emplace(sym.name, sym.value);
  }

  std::variant<ObjectScan, std::string> run() {
    if (auto p = view_.problem()) return view_.elf().path + ": error: " + *p;
    std::vector<TableEntry> entries = view_.linkedTable();
    bool linked = !entries.empty(), tables = linked;
    for (const char* t : {"__patchable_function_entries", "__mcount_loc"}) {
      if (linked || !view_.elf().section(t)) continue;
      auto e = view_.tableEntries(t);
      entries.insert(entries.end(), e.begin(), e.end());
      tables = true;
    }
    if (!tables) entries = view_.mcountCalls();
    for (const TableEntry& e : entries) site(e);
    branchesIntoSites();
    unrecordedFunctions(out_.sites.empty());
    return std::move(out_);
  }

 private:
  ObjectView view_;
  std::vector<SpecShape> shapes_;
  ObjectScan out_;
  std::set<Place> seen_;  // rec->ip of every site so far
  std::set<Place> entriesF_;  // F of every site, for the count check
  // Patched ranges by section: [start, F) is data, (F, end) is code.
  struct Range {
    uint64_t start, f, end;
    std::string where;
  };
  std::map<unsigned, std::vector<Range>> ranges_;
  std::map<std::string, uint64_t> linkedSymbols_;  // a linked image's defined symbols

  std::map<std::string, Place> places_;  // every place named so far, for findings' file offsets

  // "func+0x1c", remembered so a finding that names it has its file offset.
  std::string name(const Place& p) {
    std::string n = view_.name(p);
    places_.emplace(n, p);
    return n;
  }
  std::optional<uint64_t> fileOffsetOf(const std::string& where) const {
    auto it = places_.find(where);
    if (it == places_.end()) return std::nullopt;
    const ElfSection& s = view_.elf().sections[it->second.section];
    if (s.type == SHT_NOBITS) return std::nullopt;
    return s.offset + it->second.offset;
  }

  void finding(std::string where, std::string message, std::vector<std::string> listing = {}, bool note = false) {
    std::optional<uint64_t> at = fileOffsetOf(where);
    out_.findings.push_back({std::move(where), std::move(message), std::move(listing), note, at});
  }

  void site(const TableEntry& e) {
    std::string entry = e.table + "[" + std::to_string(e.index) + "]";
    if (!e.place) return finding(entry, "entry " + e.problem);
    const ElfSection& sec = view_.elf().sections[e.place->section];
    if (!sec.executable())
      return finding(entry, "entry points into " + sec.name + ", which is not text");
    // ftrace_call_adjust reads the object where the kernel would.
    CodeAt code = [&](uint64_t a, unsigned n) { return view_.bytesAt(Place{e.place->section, a}, n); };
    std::optional<Place> ip;
    std::optional<Place> f;
    const SpecShape* chosen = nullptr;
    std::string state;
    for (const SpecShape& s : shapes_) {
      auto adjusted = view_.code().ftraceCallAdjust(e.place->offset, s.before, code);
      if (!adjusted || int64_t(*adjusted) < s.scan.ip) continue;
      Place sip{e.place->section, *adjusted}, sf{e.place->section, *adjusted - uint64_t(s.scan.ip)};
      if (!ip) ip = sip, f = sf, chosen = &s;
      if (matches(s, s.states[0], sf)) {
        ip = sip, f = sf, chosen = &s, state = s.states[0].first->name;
        break;
      }
    }
    if (!ip) return finding(entry, "entry lies where no spec's site fits in " + sec.name);
    std::string where = name(*ip);
    out_.sites.push_back({where, view_.elf().relocatable() ? ip->offset : view_.addressOf(*ip), e.table,
                          state.empty() ? "" : chosen->spec->path, state, fileOffsetOf(where)});
    if (!seen_.insert(*ip).second) finding(where, "recorded twice (" + entry + " repeats an earlier entry)");
    entriesF_.insert(*f);
    if (isExitText(sec.name))
      finding(where, "site in " + sec.name + ": exit text is discarded when built in, so ftrace would patch freed "
                     "memory (" + entry + ")");
    else if (isInitText(sec.name))
      finding(where, "site in " + sec.name + ": ftrace drops it when init memory is freed (ftrace_free_init_mem)", {},
              true);
    if (!view_.functionAt(*ip)) finding(where, "no function symbol holds the site (" + entry + ")");
    ranges_[f->section].push_back({f->offset - chosen->before, f->offset, f->offset + chosen->code, where});
    if (linkerMayEdit(f->section, f->offset - chosen->before, f->offset + chosen->code, where)) return;
    if (state.empty()) return unmatched(*chosen, *f, where);
    alignment(*chosen, *f, where);
  }

  // A relocation that lets the linker delete or rewrite bytes of the site
  // (RISC-V alignment padding or a relaxable instruction): the object's
  // bytes there are not the kernel's, so nothing about them is proven. A
  // linked image is past that (relocations kept by --emit-relocs are done).
  bool linkerMayEdit(unsigned section, uint64_t from, uint64_t to, const std::string& where) {
    bool found = false;
    if (!view_.elf().relocatable()) return false;
    forEachLinkerEdit(view_, section, [&](const PlacedRelocation& r, const ObjectCode::LinkerEdit& e) {
      if (r.offset >= to) return false;
      if (r.offset + e.bytes <= from) return true;
      Place at{section, r.offset};
      finding(where, view_.code().relocationName(r.relocation.type) + " at " + name(at) + " lets the linker delete or "
                     "rewrite " + std::to_string(e.bytes) + " bytes from there, inside the site's " +
                     std::to_string(to - from) + " bytes: the object's bytes are not the ones the kernel patches");
      found = true;
      return false;
    });
    return found;
  }

  // A site that is no instance of any spec's compiled state: which other
  // state it is, or its bytes.
  void unmatched(const SpecShape& s, const Place& f, const std::string& where) {
    std::string compiled = s.scan.compiled;
    for (const SpecShape& other : shapes_)
      for (const auto& state : other.states)
        if (state.first->name != other.scan.compiled && matches(other, state, f))
          return finding(where, "site is state `" + state.first->name + "` of " + other.spec->path + ", not the compiled state `" +
                                    other.scan.compiled + "`");
    std::vector<std::string> listing;
    for (const Unit& u : s.states[0].second.units) {
      if (listing.size() >= s.spec->siteUnits()) break;
      int64_t from = int64_t(f.offset) + (u.address.addend - s.fAt);
      if (from < 0) {
        listing.push_back(view_.elf().sections[f.section].name + "-" + hex(uint64_t(-from)) +
                          ": (before the section's start)");
        continue;
      }
      Place at{f.section, uint64_t(from)};
      auto bytes = view_.bytesAt(at, u.bytes);
      std::string text = name(at) + ": ";
      if (!bytes) {
        listing.push_back(text + "(past the section's end)");
        continue;
      }
      for (uint8_t b : *bytes) text += byteHex(b) + " ";
      uint64_t addr = view_.elf().relocatable() ? at.offset : view_.addressOf(at);
      bool data = u.address.addend < s.fAt;
      text += data ? "(data)" : s.target.isa->disassembleBytes(*bytes, addr, s.target);
      if (auto* r = view_.relocationIn(at.section, at.offset, u.bytes))
        text += "  " + view_.code().relocationName(r->relocation.type) + " " + r->relocation.symbol;
      listing.push_back(text);
    }
    finding(where, "site is no state of the specs (expected `" + compiled + "` of " + s.spec->path + ")",
            std::move(listing));
  }

  // The spec's data units and F as aligned as it says: a data unit on its
  // own size (an 8-byte literal stored in one access), F on F's `align`.
  void alignment(const SpecShape& s, const Place& f, const std::string& where) {
    uint64_t needF = s.spec->symbol(s.spec->function) ? s.spec->symbol(s.spec->function)->align : 1;
    uint64_t offset = 0;
    std::vector<std::pair<uint64_t, uint64_t>> needs;  // (bytes before F, alignment)
    for (auto it = s.spec->before.rbegin(); it != s.spec->before.rend(); ++it) {
      offset += it->bytes;
      needs.push_back({offset, it->bytes});
    }
    for (auto [back, need] : needs) {
      Place p{f.section, f.offset - back};
      uint64_t have = guaranteedAlign(view_, p);
      if (have < need)
        return finding(where, "the " + std::to_string(need) + "-byte data unit at " + name(p) + " is only " +
                                  std::to_string(have) + "-byte aligned (" + view_.elf().sections[f.section].name +
                                  " aligned to " + std::to_string(view_.elf().sections[f.section].align) +
                                  "): a store to it may tear (GCC bug 88345 drops -falign-functions on cold functions)");
    }
    uint64_t have = guaranteedAlign(view_, f);
    if (have < needF)
      finding(where, "F is only " + std::to_string(have) + "-byte aligned; " + s.spec->path + " places it on " +
                         std::to_string(needF));
  }

  // A linked image's state at its address: the spec's symbols are the
  // image's (through [scan] symbols), so every field is concrete.
  std::optional<Program> linkedState(const SpecShape& s, const StateSpec& state, const Place& f) {
    AssemblyOptions o = assemblyOptions(*s.spec, s.target, 0);
    uint64_t fAddress = view_.addressOf(f);
    o.base = Value::constant(int64_t(fAddress - s.before));
    for (const std::string& name : std::set<std::string>(o.symbolic)) {
      std::string objectName = name;
      if (auto m = s.scan.symbols.find(name); m != s.scan.symbols.end()) objectName = m->second;
      uint64_t address;
      if (name == s.spec->function) address = fAddress;
      else if (auto it = linkedSymbols_.find(objectName); it != linkedSymbols_.end()) address = it->second;
      else continue;  // a state naming it stays symbolic and matches nothing
      o.symbols[name] = address;
      o.symbolic.erase(name);
    }
    std::string text;
    for (const UnitSpec& w : state.words) text += w.text + "\n";
    auto p = s.target.isa->assemble(text, s.spec->path, o);
    auto* program = std::get_if<Program>(&p);
    if (!program || program->units.size() != state.words.size()) return std::nullopt;
    return std::move(*program);
  }

  bool matches(const SpecShape& s, const std::pair<const StateSpec*, Program>& state, const Place& f) {
    if (view_.elf().relocatable()) return matches(s, state.second, f, s.fAt);
    auto linked = linkedState(s, *state.first, f);
    return linked && matches(s, *linked, f, int64_t(view_.addressOf(f)));
  }

  // Is the object's code at F an instance of `program` (a state of s,
  // assembled with F at `fAt`)?
  bool matches(const SpecShape& s, const Program& program, const Place& f, int64_t fAt) {
    if (f.offset < s.before) return false;
    unsigned n = 0;
    for (const Unit& u : program.units) {
      if (n++ >= s.spec->siteUnits()) break;
      Place at{f.section, f.offset + uint64_t(u.address.addend - fAt)};
      auto bytes = view_.bytesAt(at, u.bytes);
      if (!bytes || u.bytes > 8) return false;  // longer units are not compared: no match, never a false one
      Endian order = s.target.isa->byteOrder(u, s.target);
      const PlacedRelocation* r = view_.relocationIn(at.section, at.offset, u.bytes);
      for (unsigned k = 0; k < u.bytes; ++k) {
        unsigned shift = order == Endian::Little ? 8 * k : 8 * (u.bytes - 1 - k);
        uint8_t known = uint8_t(~(u.symbolicMask >> shift)), want = uint8_t(u.bits >> shift);
        if (((*bytes)[k] ^ want) & known) return false;
      }
      if (u.isConcrete()) {
        if (r && view_.elf().relocatable()) return false;  // the linker would change bytes the state fixes
        continue;
      }
      auto field = s.target.isa->relocation(u);
      if (!field || !r || !view_.elf().relocatable()) return false;
      std::string symbol = field->value.symbol;
      auto mapped = s.scan.symbols.find(symbol);
      if (mapped != s.scan.symbols.end()) symbol = mapped->second;
      ObjectRelocation rel = r->relocation;
      rel.at = unsigned(r->offset - at.offset);
      if (rel.symbol != symbol) return false;
      if (view_.code().fieldProblem(u, *field, rel, *bytes, s.target)) return false;
    }
    return n > 0;
  }

  // No branch anywhere in the object's text may land strictly inside a
  // patched range: the patch would change the instruction it lands on.
  void branchesIntoSites() {
    for (auto& [sec, rs] : ranges_)
      std::sort(rs.begin(), rs.end(), [](const Range& a, const Range& b) { return a.start < b.start; });
    if (ranges_.empty()) return;
    const Target& t = shapes_[0].target;
    for (const ElfSection& s : view_.elf().sections) {
      if (!s.executable() || s.type == SHT_NOBITS) continue;
      for (uint64_t off = 0; off < s.bytes.size();) {
        std::span<const uint8_t> rest(s.bytes.data() + off, s.bytes.size() - off);
        std::vector<bool> symbolic(std::min<size_t>(rest.size(), 15), false);
        std::unique_ptr<bool[]> flags(new bool[symbolic.size()]());
        auto len = t.isa->instructionLength(rest.first(symbolic.size()), std::span<const bool>(flags.get(), symbolic.size()), t);
        unsigned n = len.kind == IsaPlugin::Length::Known && len.bytes ? len.bytes : t.isa->patchUnitBytes(t);
        if (n > rest.size()) break;
        Place here{s.index, off};
        const PlacedRelocation* r = view_.relocationIn(s.index, off, n);
        std::optional<ObjectRelocation> rel;
        if (r) rel = r->relocation, rel->at = unsigned(r->offset - off);
        uint64_t addr = view_.elf().relocatable() ? off : view_.addressOf(here);
        if (auto b = view_.code().branchTarget(rest.first(n), addr, rel ? &*rel : nullptr, t)) {
          std::optional<Place> to;
          if (b->viaRelocation) {
            if (r->symbolPlace) to = Place{r->symbolPlace->section, r->symbolPlace->offset + uint64_t(b->value)};
          } else if (view_.elf().relocatable()) {
            to = Place{s.index, uint64_t(b->value)};
          } else {
            to = view_.placeOfAddress(uint64_t(b->value));
          }
          if (to) branchTo(here, *to);
        }
        off += n;
      }
    }
  }

  void branchTo(const Place& from, const Place& to) {
    auto it = ranges_.find(to.section);
    if (it == ranges_.end()) return;
    const auto& rs = it->second;
    auto r = std::upper_bound(rs.begin(), rs.end(), to.offset, [](uint64_t o, const Range& x) { return o < x.start; });
    if (r == rs.begin()) return;
    --r;
    bool data = to.offset >= r->start && to.offset < r->f;
    bool code = to.offset > r->f && to.offset < r->end;
    if (!data && !code) return;
    finding(name(from), std::string("branch to ") + name(to) + ", strictly inside the patched " +
                                  (data ? "data" : "code") + " of the site at " + r->where +
                                  ": patching it changes what this path executes");
  }

  // Every function whose entry is a spec's compiled state must be
  // recorded: a build that lost its entries (sorttable zeroing them)
  // boots with those functions untraceable and nothing says so.
  void unrecordedFunctions(bool noSites) {
    unsigned missing = 0;
    for (const ElfSymbol& sym : view_.elf().symbols) {
      if (sym.type != STT_FUNC) continue;
      auto f = view_.placeOf(sym);
      if (!f || !view_.elf().sections[f->section].executable() || entriesF_.count(*f)) continue;
      for (const SpecShape& s : shapes_)
        if (matches(s, s.states[0], *f)) {
          ++missing;
          finding(name(*f), "entry is state `" + s.scan.compiled + "` of " + s.spec->path +
                                      " but no table entry records it: ftrace never patches it");
          break;
        }
    }
    if (noSites && missing)
      finding(view_.elf().path, "0 usable entries in __patchable_function_entries and __mcount_loc, but " +
                                    std::to_string(missing) + " functions are compiled for patching");
  }
};

}  // namespace

std::variant<ObjectScan, std::string> scanObject(const ElfObject& elf, const std::vector<const Spec*>& specs) {
  const ObjectCode* code = objectCodeForMachine(elf.machine);
  if (!code) return elf.path + ": error: ELF machine " + std::to_string(elf.machine) + " has no ISA plug-in with a scan part";
  std::vector<SpecShape> shapes;
  std::string targetProblem;
  for (const Spec* spec : specs) {
    auto scan = scanSpecOf(*spec);
    if (!scan || objectCodeOf(spec->target) != code) continue;
    SpecShape s;
    s.spec = spec;
    s.scan = *scan;
    // The spec's target (or a matrix entry) of the object's width, in its byte order.
    s.target = spec->target;
    unsigned bits = elf.elf64 ? 64 : 32;
    for (Target t : specTargets(*spec)) {
      t.endian = elf.endian;
      if (t.registerBits() == bits && !code->targetProblem(elf.flags, elf.elf64, t)) {
        s.target = t;
        break;
      }
    }
    s.target.endian = elf.endian;
    // A target that would misread the object (RISC-V: compressed code
    // read without C) leaves the spec out; none left is bad input.
    if (auto p = code->targetProblem(elf.flags, elf.elf64, s.target)) {
      targetProblem = spec->path + ": " + *p;
      continue;
    }
    s.before = spec->beforeBytes();
    s.fAt = assemblyOptions(*spec, s.target, spec->entryUnit()).base.addend;
    s.code = spec->words * spec->unitBytes(spec->target);
    const StateSpec* compiled = spec->state(s.scan.compiled);
    if (!compiled) return spec->path + ": error: [scan] compiled names no state";
    std::vector<const StateSpec*> order{compiled};
    for (const StateSpec& st : spec->states)
      if (&st != compiled) order.push_back(&st);
    for (const StateSpec* st : order) {
      auto p = assembleState(*spec, *st, s.target);
      if (auto* e = std::get_if<Diagnostics>(&p)) {
        if (st == compiled) return (*e)[0].str();
        continue;
      }
      s.states.emplace_back(st, std::move(std::get<Program>(p)));
    }
    shapes.push_back(std::move(s));
  }
  if (shapes.empty() && !targetProblem.empty())
    return elf.path + ": error: offset " + (elf.elf64 ? "0x30" : "0x24") + " (e_flags " + hex(elf.flags) +
           "): " + targetProblem;
  if (shapes.empty())
    return elf.path + ": error: no spec given has [scan] for its machine (e_machine " + std::to_string(elf.machine) + ")";
  return Scanner(elf, *code, std::move(shapes)).run();
}

}  // namespace patchcheck
