// One or more hand-picked instances per instruction format, with the words
// GNU as 2.40 produced for them (mips-linux-gnu-as -march=... -EB/-EL under
// .set noreorder and .set noat; R6 objects linked with mips-linux-gnu-ld so
// that compact branches resolve). Targets are `.+N`, so the words do not
// depend on where the code sits. Each word must also disassemble to text
// that reassembles to it.
#include <catch2/catch.hpp>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Printer.h"

using namespace patchcheck;
using namespace patchcheck::mips;

namespace {

struct Example {
  const char* text;
  uint32_t word;
};

std::optional<uint32_t> one(const std::string& text, const mips::Target& t, uint64_t base = 0) {
  AssemblyOptions o;
  o.target = t;
  o.base = Value::constant(int64_t(base));
  auto a = assemble(text, "t.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) {
    UNSCOPED_INFO((*e)[0].str());
    return std::nullopt;
  }
  auto w = concreteWords(std::get<Assembly>(a));
  auto* v = std::get_if<std::vector<uint32_t>>(&w);
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0];
}

void check(const mips::Target& t, std::initializer_list<Example> examples) {
  for (const Example& x : examples) {
    INFO(t.str() << ": " << x.text);
    CHECK(one(x.text, t) == x.word);
    std::string back = disassemble(x.word, 0, t);
    INFO("disassembled: " << back);
    CHECK(one(back, t) == x.word);
  }
}

}  // namespace

TEST_CASE("mips32r2 formats match GNU as", "[encoder_formats]") {
  check(mips::Target{Isa::Mips32R2, Endian::Big, Abi::O32},
     {
         {"addu $4, $5, $6", 0x00a62021},
         {"sll $4, $5, 31", 0x000527c0},
         {"sllv $4, $5, $6", 0x00c52004},
         {"addiu $4, $5, -1", 0x24a4ffff},
         {"addiu $4, $5, 65535", 0x24a4ffff},
         {"ori $4, $5, 0xffff", 0x34a4ffff},
         {"lui $4, 0xffff", 0x3c04ffff},
         {"lw $4, -4($29)", 0x8fa4fffc},
         {"sb $4, 32767($5)", 0xa0a47fff},
         {"lwl $4, 3($5)", 0x88a40003},
         {"ll $4, -32768($5)", 0xc0a48000},
         {"beq $4, $5, .+8", 0x10850001},
         {"bgez $4, .-131068", 0x04818000},
         {"bgezal $4, .+131072", 0x04917fff},
         {"beql $4, $5, .+8", 0x50850001},
         {"jr $31", 0x03e00008},
         {"jr.hb $31", 0x03e00408},
         {"jalr $4, $5", 0x00a02009},
         {"jalr.hb $5", 0x00a0fc09},
         {"teq $4, $5, 1023", 0x0085fff4},
         {"teqi $4, -32768", 0x048c8000},
         {"sync 0x10", 0x0000040f},
         {"cache 0x1f, -32768($4)", 0xbc9f8000},
         {"pref 5, 100($4)", 0xcc850064},
         {"syscall 0xfffff", 0x03ffffcc},
         {"break 1, 2", 0x0001008d},
         {"sdbbp 7", 0x700001ff},
         {"mfc0 $4, $12, 7", 0x40046007},
         {"mtc0 $4, $14", 0x40847000},
         {"di $4", 0x41646000},
         {"ei", 0x41606020},
         {"eret", 0x42000018},
         {"deret", 0x4200001f},
         {"wait 0x7ffff", 0x43ffffe0},
         {"li $4, 0xffff8000", 0x24048000},
         {"li $4, 0x8000", 0x34048000},
         {"li $4, -0x80000000", 0x3c048000},
         {"not $4, $5", 0x00a02027},
         {"neg $4, $5", 0x00052022},
         {"negu $4, $5", 0x00052023},
         {"mul $4, $5, $6", 0x70a62002},
         {"mult $4, $5", 0x00850018},
         {"div $0, $4, $5", 0x0085001a},
         {"mfhi $4", 0x00002010},
         {"nal", 0x04100000},
         {"movz $4, $5, $6", 0x00a6200a},
         {"synci 8($4)", 0x049f0008},
         {"rotr $4, $5, 7", 0x002521c2},
     });
}

TEST_CASE("mips64r6 formats match GNU as", "[encoder_formats]") {
  check(mips::Target{Isa::Mips64R6, Endian::Little, Abi::N64},
     {
         {"daddu $4, $5, $6", 0x00a6202d},
         {"dsll $4, $5, 40", 0x0005223c},
         {"dsll32 $4, $5, 8", 0x0005223c},
         {"drotr $4, $5, 33", 0x0025207e},
         {"dsrav $4, $5, $6", 0x00c52017},
         {"daddiu $4, $5, 65535", 0x64a4ffff},
         {"aui $4, $5, 0x8000", 0x3ca48000},
         {"aui $4, $0, 1", 0x3c040001},
         {"daui $4, $5, 0xffff", 0x74a4ffff},
         {"dahi $4, $4, 1", 0x04860001},
         {"dati $4, $4, 1", 0x049e0001},
         {"ld $4, -8($29)", 0xdfa4fff8},
         {"ll $4, -256($5)", 0x7ca48036},
         {"scd $4, 255($5)", 0x7ca47fa7},
         {"cache 1, 255($4)", 0x7c817fa5},
         {"pref 1, -256($4)", 0x7c818035},
         {"jr $31", 0x03e00009},
         {"jr.hb $31", 0x03e00409},
         {"jrc $31", 0xd81f0000},
         {"jalrc $25", 0xf8190000},
         {"jic $25, -32768", 0xd8198000},
         {"jialc $25, 32767", 0xf8197fff},
         {"beqc $6, $5, .+4", 0x20a60000},
         {"bnec $5, $6, .+4", 0x60a60000},
         {"bovc $5, $6, .+4", 0x20c50000},
         {"bnvc $0, $0, .+4", 0x60000000},
         {"bgec $5, $6, .+4", 0x58a60000},
         {"bltuc $5, $6, .+4", 0x1ca60000},
         {"beqzc $5, .+4", 0xd8a00000},
         {"bnezc $5, .-4194300", 0xf8b00000},
         {"bc .+134217728", 0xc9ffffff},
         {"balc .-134217724", 0xea000000},
         {"blezc $5, .+4", 0x58050000},
         {"bgezalc $5, .+4", 0x18a50000},
         {"beqzalc $5, .+4", 0x20050000},
         {"bal .+4", 0x04110000},
         {"mul $4, $5, $6", 0x00a62098},
         {"muh $4, $5, $6", 0x00a620d8},
         {"dmodu $4, $5, $6", 0x00a620df},
         {"seleqz $4, $5, $6", 0x00a62035},
         {"sdbbp 3", 0x000000ce},
         {"dmfc0 $4, $9, 6", 0x40244806},
     });
}
