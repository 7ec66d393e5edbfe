// The x86-64 plug-in through the ISA interface: bytes from
// docs/encoder-x86.md and GNU as 2.40 (oracle.gnu_as_diff checks
// every row against it), GNU as's relaxation of jumps, errors with
// file:line:column, symbolic units as Z3 terms with their side conditions
// (rel32 reach, sign-extended imm32), relocations, objdump's text, and
// the target defaults.
#include <catch2/catch.hpp>

#include "encoder/IsaRegistry.h"

using namespace patchcheck;

namespace {

Target x86Target() { return *targetNamed("x86_64"); }

std::variant<Program, Diagnostics> assembleText(const std::string& text, AssemblyOptions o = {}) {
  o.target = x86Target();
  return o.target.isa->assemble(text, "t.s", o);
}

// The bytes of every unit, in memory order, through the unit's term.
std::vector<std::vector<uint8_t>> bytesOf(const Program& p) {
  std::vector<std::vector<uint8_t>> out;
  z3::context c;
  for (const Unit& u : p.units) {
    z3::expr term =
        x86Target()
            .isa->symbolic(u, x86Target(), c, [&](const std::string& s) { return c.bv_const(s.c_str(), 64); })
            .term;
    std::vector<uint8_t> bytes;
    for (unsigned k = 0; k < u.bytes; ++k)
      bytes.push_back(uint8_t(term.extract(8 * k + 7, 8 * k).simplify().get_numeral_uint()));
    out.push_back(bytes);
  }
  return out;
}

std::vector<std::vector<uint8_t>> units(const std::string& text, uint64_t base = 0,
                                        std::map<std::string, uint64_t> symbols = {}) {
  AssemblyOptions o;
  o.base = Value::constant(int64_t(base));
  o.symbols = std::move(symbols);
  auto r = assembleText(text, o);
  if (auto* e = std::get_if<Diagnostics>(&r)) FAIL(e->front().str());
  return bytesOf(std::get<Program>(r));
}

std::vector<uint8_t> bytes(const std::string& text, uint64_t base = 0) {
  std::vector<uint8_t> out;
  for (auto& u : units(text, base)) out.insert(out.end(), u.begin(), u.end());
  return out;
}

std::string firstError(const std::string& text, AssemblyOptions o = {}) {
  auto r = assembleText(text, o);
  REQUIRE(std::holds_alternative<Diagnostics>(r));
  return std::get<Diagnostics>(r).front().str();
}

std::string text(std::vector<uint8_t> b, uint64_t address = 0) {
  return x86Target().isa->disassembleBytes(b, address, x86Target());
}

using Bytes = std::vector<uint8_t>;

}  // namespace

TEST_CASE("x86_64 is a little-endian sysv target of byte patch units with Linux's regions", "[x86_encoder]") {
  Target t = x86Target();
  CHECK(t.str() == "x86_64/sysv/little");
  CHECK(t.registerBits() == 64);
  CHECK_FALSE(t.problem());
  CHECK(t.isa->patchUnitBytes(t) == 1);
  auto regions = t.isa->defaultRegions(t);
  REQUIRE(regions.size() == 2);
  CHECK(regions[0].name == "kernel-text");
  CHECK(regions[0].lo == 0xffffffff80000000ull);
  CHECK(*targetNamed("mips64r2") == defaultTarget());  // MIPS stays the default
}

TEST_CASE("x86_64 bytes of the ftrace facts", "[x86_encoder]") {
  // call/jmp rel32 count from the end of the instruction; int3, ret.
  CHECK(bytes("call .+0x100\njmp .+0x100\nint3\nret\nretq", 0x1000) ==
        Bytes{0xe8, 0xfb, 0x00, 0x00, 0x00, 0xe9, 0xfb, 0x00, 0x00, 0x00, 0xcc, 0xc3, 0xc3});
  // A call to a symbol outside the program is rel32 whatever the distance.
  CHECK(units("call ftrace_caller", 0xffffffff81000000ull, {{"ftrace_caller", 0xffffffff81000010ull}})[0] ==
        Bytes{0xe8, 0x0b, 0x00, 0x00, 0x00});
}

TEST_CASE("x86_64 nops: Linux's x86_nops, and GNU as drops a zero displacement unless told", "[x86_encoder]") {
  auto u = units(
      "nop\n"
      "xchg %ax,%ax\n"
      "nopl (%rax)\n"
      "{disp8} nopl 0x0(%rax)\n"
      "{disp8} nopl 0x0(%rax,%rax,1)\n"
      "{disp8} nopw 0x0(%rax,%rax,1)\n"
      "{disp32} nopl 0x0(%rax)\n"
      "{disp32} nopl 0x0(%rax,%rax,1)\n"
      "nopl 0x0(%rax,%rax,1)\n"                 // as GNU as: no displacement
      ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n");  // BYTES_NOP5, one unit
  REQUIRE(u.size() == 10);
  CHECK(u[0] == Bytes{0x90});
  CHECK(u[1] == Bytes{0x66, 0x90});
  CHECK(u[2] == Bytes{0x0f, 0x1f, 0x00});
  CHECK(u[3] == Bytes{0x0f, 0x1f, 0x40, 0x00});
  CHECK(u[4] == Bytes{0x0f, 0x1f, 0x44, 0x00, 0x00});
  CHECK(u[5] == Bytes{0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00});
  CHECK(u[6] == Bytes{0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00});
  CHECK(u[7] == Bytes{0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00});
  CHECK(u[8] == Bytes{0x0f, 0x1f, 0x04, 0x00});
  CHECK(u[9] == u[4]);
  // objdump names the 5-byte nop so; reassembled, that text is 4 bytes.
  CHECK(text(u[4]) == "nopl\t0x0(%rax,%rax,1)");
  CHECK(text(u[1]) == "xchg\t%ax,%ax");
  CHECK(text(u[6]) == "nopl\t0x0(%rax)");
}

TEST_CASE("x86_64 picks GNU as's encoding where several exist", "[x86_encoder]") {
  CHECK(bytes("mov %rax,%rbx") == Bytes{0x48, 0x89, 0xc3});                // 89 /r, not 8b
  CHECK(bytes("add $1,%eax") == Bytes{0x83, 0xc0, 0x01});                  // imm8
  CHECK(bytes("add $0x100,%eax") == Bytes{0x05, 0x00, 0x01, 0x00, 0x00});  // accumulator form
  CHECK(bytes("sub $0xa8,%rsp") == Bytes{0x48, 0x81, 0xec, 0xa8, 0x00, 0x00, 0x00});
  CHECK(bytes("mov $0xffffffff,%rax") == Bytes{0x48, 0xb8, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0});  // movabs
  CHECK(bytes("mov $-1,%rax") == Bytes{0x48, 0xc7, 0xc0, 0xff, 0xff, 0xff, 0xff});
  CHECK(bytes("mov 0x1234,%eax") == Bytes{0x8b, 0x04, 0x25, 0x34, 0x12, 0x00, 0x00});  // not moffs
  CHECK(bytes("xchg %eax,%eax") == Bytes{0x87, 0xc0});
  CHECK(bytes("xchg %rbx,%rax") == Bytes{0x48, 0x93});
  CHECK(bytes("test (%rax),%ebx") == Bytes{0x85, 0x18});
  CHECK(bytes("shl $1,%eax\nshl %eax") == Bytes{0xd1, 0xe0, 0xd1, 0xe0});
  CHECK(bytes("mov (%r13),%rax\nmov (%r12),%rax") == Bytes{0x49, 0x8b, 0x45, 0x00, 0x49, 0x8b, 0x04, 0x24});
  CHECK(bytes("push %rbp\npop %r12\npushfq\npopfq\nleave\ncld\nstd\nud2\nendbr64") ==
        Bytes{0x55, 0x41, 0x5c, 0x9c, 0x9d, 0xc9, 0xfc, 0xfd, 0x0f, 0x0b, 0xf3, 0x0f, 0x1e, 0xfa});
  CHECK(bytes("movzbl (%rax),%eax\nmovslq %eax,%rdx\ncmove %rax,%rbx\nsetne (%rax)") ==
        Bytes{0x0f, 0xb6, 0x00, 0x48, 0x63, 0xd0, 0x48, 0x0f, 0x44, 0xd8, 0x0f, 0x95, 0x00});
  CHECK(bytes("mov %gs:0x28,%rax") == Bytes{0x65, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00});
}

TEST_CASE("x86_64 relaxes jumps to labels as GNU as does, and calls are rel32", "[x86_encoder]") {
  // 127 bytes ahead: rel8; 128: rel32. Backward -128: rel8.
  auto near = units("jmp 1f\n.fill 127,1,0x90\n1: ret");
  CHECK(near[0] == Bytes{0xeb, 0x7f});
  auto far = units("jmp 1f\n.fill 128,1,0x90\n1: ret");
  CHECK(far[0] == Bytes{0xe9, 0x80, 0x00, 0x00, 0x00});
  auto back = units("1: .fill 126,1,0x90\njne 1b");
  CHECK(back[1] == Bytes{0x75, 0x80});
  auto backFar = units("1: .fill 127,1,0x90\njne 1b");
  CHECK(backFar[1] == Bytes{0x0f, 0x85, 0x7b, 0xff, 0xff, 0xff});
  // A jump that grows pushes another out of reach (GNU as: the je alone
  // would reach 2f with rel8, but the jmp to 1f cannot, and grows).
  auto fits = units("je 2f\njmp 1f\n.fill 121,1,0x90\n2: .fill 6,1,0x90\n1: ret");
  CHECK(fits[0] == Bytes{0x74, 0x7b});
  CHECK(fits[1] == Bytes{0xeb, 0x7f});
  auto pushed = units("je 2f\njmp 1f\n.fill 124,1,0x90\n2: .fill 4,1,0x90\n1: ret");
  CHECK(pushed[0] == Bytes{0x0f, 0x84, 0x81, 0x00, 0x00, 0x00});
  CHECK(pushed[1] == Bytes{0xe9, 0x80, 0x00, 0x00, 0x00});
  // {disp32} asks for rel32; a symbol outside the program is always rel32.
  CHECK(units("{disp32} jmp 1f\n1: ret")[0] == Bytes{0xe9, 0x00, 0x00, 0x00, 0x00});
  CHECK(units("jmp T", 0x1000, {{"T", 0x1010}})[0] == Bytes{0xe9, 0x0b, 0x00, 0x00, 0x00});
  CHECK(units("call 1f\n1: ret")[0] == Bytes{0xe8, 0x00, 0x00, 0x00, 0x00});
  // Every condition; 1b/1f and labels.
  CHECK(bytes("1: jo 1b\njno 1b\njb 1b\njae 1b\nje 1b\njne 1b\njbe 1b\nja 1b\n"
              "js 1b\njns 1b\njp 1b\njnp 1b\njl 1b\njge 1b\njle 1b\njg 1b") ==
        Bytes{0x70, 0xfe, 0x71, 0xfc, 0x72, 0xfa, 0x73, 0xf8, 0x74, 0xf6, 0x75, 0xf4, 0x76, 0xf2, 0x77, 0xf0,
              0x78, 0xee, 0x79, 0xec, 0x7a, 0xea, 0x7b, 0xe8, 0x7c, 0xe6, 0x7d, 0xe4, 0x7e, 0xe2, 0x7f, 0xe0});
  CHECK(bytes("jz 1f\njc 1f\njnae 1f\n1:") == Bytes{0x74, 0x04, 0x72, 0x02, 0x72, 0x00});
}

TEST_CASE("x86_64 data directives and alignment", "[x86_encoder]") {
  auto u = units(
      ".quad 0x1122334455667788\n.long -1, 2\n.short 0xbeef\n.byte 1,2,3\n.p2align 3\nret\n"
      ".balign 4, 0xcc\nret");
  REQUIRE(u.size() == 9);
  CHECK(u[0] == Bytes{0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11});
  CHECK(u[1] == Bytes{0xff, 0xff, 0xff, 0xff});
  CHECK(u[2] == Bytes{0x02, 0x00, 0x00, 0x00});
  CHECK(u[3] == Bytes{0xef, 0xbe});
  CHECK(u[4] == Bytes{1, 2, 3});
  CHECK(u[5] == Bytes{0x0f, 0x1f, 0x00});  // 21 -> 24: GNU as's 3-byte nop
  CHECK(u[6] == Bytes{0xc3});
  CHECK(u[7] == Bytes{0xcc, 0xcc, 0xcc});
  CHECK(u[8] == Bytes{0xc3});
}

TEST_CASE("x86_64 errors name file:line:column", "[x86_encoder]") {
  CHECK(firstError("nop\n  frob %rax") == "t.s:2:3: error: unknown instruction 'frob'");
  CHECK(firstError("mov %rax,%rbq") == "t.s:1:10: error: unknown register '%rbq'");
  CHECK(firstError("  call %rax").find("t.s:1:8: error: 'call' does not take '%rax' here") == 0);
  CHECK(firstError("movb $256,%al") == "t.s:1:7: error: immediate 0x100 does not fit 8 bits ('mov', 8-bit)");
  CHECK(firstError("add $0x80000000,%rax").find("t.s:1:6: error: immediate 0x80000000 does not fit a sign-extended") ==
        0);
  CHECK(firstError("jmp nowhere") == "t.s:1:5: error: undefined symbol 'nowhere'");
  CHECK(firstError("jmp 1f") == "t.s:1:5: error: no local label 1 ahead");
  CHECK(firstError("add $1,(%rax)").find("t.s:1:1: error: no size suffix and no register operand") == 0);
  CHECK(firstError("movl %rax,(%rbx)") == "t.s:1:6: error: '%rax' does not match the size of the 'l' suffix");
  CHECK(firstError("mov (%rsp,%rsp),%rax") == "t.s:1:11: error: '%rsp' cannot be an index register");
  CHECK(firstError("shl $256,%eax") == "t.s:1:6: error: shift count '256' is not 0..255");
  CHECK(firstError("mov 0x80000000(%rax),%eax") ==
        "t.s:1:5: error: displacement 0x80000000 does not fit a signed 32 bits");
  CHECK(firstError(".byte ext", [] {
          AssemblyOptions o;
          o.symbols["ext"] = 0x1000;
          return o;
        }()) == "t.s:1:7: error: .byte cannot hold an address ('ext')");
  CHECK(firstError("mov %ah,%r8b") ==
        "t.s:1:5: error: %ah, %bh, %ch and %dh cannot be used in an instruction that needs a REX prefix");
  CHECK(firstError("{disp16} nop") ==
        "t.s:1:1: error: unknown pseudo prefix '{disp16}' (patchcheck takes {disp8} and {disp32})");
  CHECK(firstError("x: nop\nx: nop") == "t.s:2:1: error: label 'x' is already defined");
  // A concrete call target beyond rel32's reach.
  AssemblyOptions o;
  o.base = Value::constant(0x1000);
  o.symbols["far"] = 0x100001000ull;
  CHECK(firstError("call far", o) ==
        "t.s:1:6: error: 'call' at 0x1000 cannot reach 0x100001000 (a 32-bit offset from 0x1005)");
  // A symbolic field must lie in the first 8 bytes of its unit.
  AssemblyOptions s;
  s.symbolic = {"T"};
  CHECK(firstError("movq $T, 0x10(%rsp)", s).find("t.s:1:1: error: the address-dependent field of") == 0);
  CHECK(firstError("mov T(%rip),%rax\nmovabs $T,%rax", s).find("t.s:2:1: error:") == 0);
}

TEST_CASE("x86_64 call to a symbolic trampoline is a term with its reach as a condition", "[x86_encoder]") {
  AssemblyOptions o;
  o.base = Value{"F", 0};
  o.symbolic = {"F", "ftrace_caller", "ops"};
  auto r = assembleText("call ftrace_caller\nmovq ops(%rip),%rdx\nmovq $ops,%rax\n.quad ops\n1: jmp 1b", o);
  REQUIRE(std::holds_alternative<Program>(r));
  const Program& p = std::get<Program>(r);
  const Target t = x86Target();
  REQUIRE(p.units.size() == 5);
  CHECK(p.units[0].bytes == 5);
  CHECK(p.units[0].bits == 0xe8);
  CHECK(p.units[0].symbolicMask == 0xffffffff00ull);
  CHECK(p.units[1].symbolicMask == 0xffffffff000000ull);
  CHECK((p.units[1].bits & 0xffffff) == 0x158b48);
  CHECK(p.units[3].symbolicMask == ~0ull);
  CHECK(p.units[4].isConcrete());  // a jump within the program does not move with F
  CHECK(p.units[4].bits == 0xfeeb);

  auto call = t.isa->relocation(p.units[0]);
  REQUIRE(call);
  CHECK(call->kind == "pc32");
  CHECK(call->formula == "S - P");
  CHECK(call->value == Value{"ftrace_caller", 0});
  CHECK(call->relativeTo == Value{"F", 5});  // the end of the call
  REQUIRE(call->pieces.size() == 1);
  CHECK(call->pieces[0].at == 8);
  CHECK(call->pieces[0].width == 32);
  auto load = t.isa->relocation(p.units[1]);
  CHECK(load->kind == "pc32");
  CHECK(load->relativeTo == Value{"F", 12});
  CHECK(load->pieces[0].at == 24);
  CHECK(t.isa->relocation(p.units[2])->kind == "abs32s");
  CHECK(t.isa->relocation(p.units[2])->formula == "S");
  CHECK(t.isa->relocation(p.units[3])->kind == "abs64");
  CHECK_FALSE(t.isa->relocation(p.units[4]));

  z3::context c;
  z3::expr f = c.bv_const("F", 64), tramp = c.bv_const("ftrace_caller", 64), ops = c.bv_const("ops", 64);
  auto symbol = [&](const std::string& s) { return s == "F" ? f : s == "ops" ? ops : tramp; };
  SymbolicUnit su = t.isa->symbolic(p.units[0], t, c, symbol);
  CHECK(su.term.get_sort().bv_size() == 40);
  REQUIRE(su.conditions.size() == 1);
  CHECK(su.reasons[0].find("reaches ftrace_caller") != std::string::npos);
  CHECK(su.knownMask == 0xff);
  CHECK(su.knownBits == 0xe8);
  // 2 GiB away: out of reach; 4 KiB on: e8 fb 0f 00 00.
  z3::solver far(c);
  far.add(f == c.bv_val(uint64_t(0xffffffff81000000ull), 64));
  far.add(tramp == f + c.bv_val(uint64_t(5) + (uint64_t(1) << 31), 64));
  far.add(su.conditions[0]);
  CHECK(far.check() == z3::unsat);
  z3::solver near(c);
  near.add(f == c.bv_val(uint64_t(0xffffffff81000000ull), 64));
  near.add(tramp == f + c.bv_val(0x1000, 64));
  for (const z3::expr& cond : su.conditions) near.add(cond);
  REQUIRE(near.check() == z3::sat);
  CHECK(near.get_model().eval(su.term, true).get_numeral_uint64() == 0x00000ffbe8ull);  // bytes e8 fb 0f 00 00

  // $ops in a 64-bit operation: the sign-extended imm32 must be the address.
  SymbolicUnit imm = t.isa->symbolic(p.units[2], t, c, symbol);
  REQUIRE(imm.conditions.size() == 1);
  z3::solver user(c);
  user.add(ops == c.bv_val(uint64_t(0x00007fff00000000ull), 64));
  user.add(imm.conditions[0]);
  CHECK(user.check() == z3::unsat);
  z3::solver kernel(c);
  kernel.add(ops == c.bv_val(uint64_t(0xffffffff82001234ull), 64));
  kernel.add(imm.conditions[0]);
  REQUIRE(kernel.check() == z3::sat);
  // 48 c7 c0 34 12 00 82
  CHECK(kernel.get_model().eval(imm.term, true).get_numeral_uint64() == 0x82001234c0c748ull);
  // .quad: no condition, the address itself.
  SymbolicUnit quad = t.isa->symbolic(p.units[3], t, c, symbol);
  CHECK(quad.conditions.empty());
  z3::solver other(c);
  other.add(quad.term != ops);
  CHECK(other.check() == z3::unsat);
}

TEST_CASE("x86_64 prints what objdump -d prints", "[x86_encoder]") {
  CHECK(text({0xe8, 0xfb, 0x0f, 0x00, 0x00}, 0xffffffff81000000ull) == "call\tffffffff81001000");
  CHECK(text({0xeb, 0xfe}, 0x1000) == "jmp\t1000");
  CHECK(text({0xff, 0x15, 0x10, 0x00, 0x00, 0x00}) == "call\t*0x10(%rip)");
  CHECK(text({0xff, 0xd0}) == "call\t*%rax");
  CHECK(text({0x48, 0x83, 0xe4, 0xf0}) == "and\t$0xfffffffffffffff0,%rsp");
  CHECK(text({0x48, 0xc7, 0x44, 0x24, 0x08, 0x00, 0x00, 0x00, 0x00}) == "movq\t$0x0,0x8(%rsp)");
  CHECK(text({0x48, 0x8b, 0x45, 0x00}) == "mov\t0x0(%rbp),%rax");
  CHECK(text({0x8b, 0x04, 0x25, 0x00, 0x00, 0x00, 0x80}) == "mov\t0xffffffff80000000,%eax");
  CHECK(text({0x48, 0xb8, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}) == "movabs\t$0x1122334455667788,%rax");
  CHECK(text({0x0f, 0xb6, 0x00}) == "movzbl\t(%rax),%eax");
  CHECK(text({0x48, 0x63, 0xd0}) == "movslq\t%eax,%rdx");
  CHECK(text({0xd3, 0xe8}) == "shr\t%cl,%eax");
  CHECK(text({0xd2, 0x20}) == "shlb\t%cl,(%rax)");
  CHECK(text({0xd1, 0xe0}) == "shl\t%eax");
  CHECK(text({0x9c}) == "pushf");
  CHECK(text({0xc3}) == "ret");
  CHECK(text({0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}) == "data16 cs nopw\t0x0(%rax,%rax,1)");
  CHECK(text({0x65, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}) == "mov\t%gs:0x28,%rax");
  CHECK(text({0x0f, 0x44, 0xc3}) == "cmove\t%ebx,%eax");
  CHECK(text({0x0f, 0xff}) == "(bad)");  // ud0 without its ModRM byte
  // disassemble(value) reads the first 8 bytes little-endian.
  CHECK(x86Target().isa->disassemble(0xfa1e0ff3, 4, 0, x86Target()) == "endbr64");
}

TEST_CASE("x86_64 instruction lengths through the plug-in", "[x86_encoder]") {
  Target t = x86Target();
  using L = IsaPlugin::Length;
  Bytes call{0xe8, 0, 0, 0, 0};
  CHECK(t.isa->instructionLength(call, {}, t).kind == L::Known);
  CHECK(t.isa->instructionLength(call, {}, t).bytes == 5);
  CHECK(t.isa->instructionLength(std::span<const uint8_t>(call.data(), 3), {}, t).kind == L::NeedMore);
  // The offset of a call may depend on the placement; its opcode may not.
  bool flags[5] = {false, true, true, true, true};
  CHECK(t.isa->instructionLength(call, flags, t).kind == L::Known);
  bool opcode[5] = {true, false, false, false, false};
  CHECK(t.isa->instructionLength(call, opcode, t).kind == L::PlacementDependent);
}

TEST_CASE("x86_64 table text lists every row", "[x86_encoder]") {
  std::string table = x86Target().isa->tableText();
  CHECK(table.find("mov|zydis=mov|sizes=0f|") != std::string::npos);
  CHECK(table.find("je|zydis=jz|") != std::string::npos);
  CHECK(table.find("endbr64|zydis=endbr64|") != std::string::npos);
  CHECK(std::count(table.begin(), table.end(), '\n') > 100);
}

TEST_CASE("x86_64 relaxes a jump to a `near` symbol as GNU as relaxes one to a label", "[x86_encoder]") {
  // rel8 counts from the end of the 2-byte jump: at F + a to S, S within
  // W of F, the displacement lies in [-a - 2 - W, -a - 2 + W].
  auto jump = [](const std::string& text, uint64_t within) {
    AssemblyOptions o;
    o.base = Value{"F", 0};
    o.symbolic = {"F", "S"};
    o.near["S"] = {"F", within};
    return assembleText(text, o);
  };
  auto r = jump("jmp S\nje S", 126);  // -128..124, then (je at F+2) -130..122
  REQUIRE(std::holds_alternative<Diagnostics>(r));
  CHECK(std::get<Diagnostics>(r).front().str().find("t.s:2:4: error: 'je S': S lies within 126 bytes of F, so a "
                                                    "rel8 displacement from F+0x4 would be -130..122") == 0);
  r = jump("jmp S", 126);
  REQUIRE(std::holds_alternative<Program>(r));
  const Unit& u = std::get<Program>(r).units.at(0);
  CHECK(u.bytes == 2);
  CHECK(u.bits == 0xeb);
  CHECK(u.symbolicMask == 0xff00ull);
  CHECK(firstError("jmp S", [] {
          AssemblyOptions o;
          o.base = Value{"F", 0};
          o.symbolic = {"F", "S"};
          o.near["S"] = {"F", 127};
          return o;
        }()).find("would be -129..125, across rel8's -128..127") != std::string::npos);
  r = jump("jmp S + 1000", 100);  // 898..1098: rel32 everywhere
  REQUIRE(std::holds_alternative<Program>(r));
  CHECK(std::get<Program>(r).units.at(0).bytes == 5);
  r = jump("{disp32} jmp S", 10);  // asked for rel32
  REQUIRE(std::holds_alternative<Program>(r));
  CHECK(std::get<Program>(r).units.at(0).bytes == 5);
}
