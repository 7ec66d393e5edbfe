// The arm64 CMODX list (encoder/arm64/Cmodx): which words may be modified
// while another CPU executes them, and which conditional branches may run
// with the fields of two versions (Arm ARM B2.2.5). Words from the
// encodings in docs/encoder-arm64.md, checked against GNU as.
#include <catch2/catch.hpp>

#include "encoder/arm64/Cmodx.h"

using namespace patchcheck::arm64;

TEST_CASE("arm64 CMODX list: the current Arm ARM's entries the encoder has", "[arm64_cmodx]") {
  CHECK(cmodxList().size() == 18);
  CHECK(cmodxListText().find(std::string(cmodxRevision())) != std::string::npos);
  for (uint32_t w : {0x14000000u,   // b .
                     0x54000000u,   // b.eq .
                     0x94000000u,   // bl .
                     0xd4200000u,   // brk #0
                     0xb4000000u,   // cbz x0, .
                     0xb5000000u,   // cbnz x0, .
                     0xd4000002u,   // hvc #0
                     0xd5033fdfu,   // isb
                     0xd503201fu,   // nop
                     0xd4000001u,   // svc #0
                     0x36000000u,   // tbz w0, #0, .
                     0x37000000u,   // tbnz w0, #0, .
                     0x00000000u})  // udf #0: on the list since the current issue
    CHECK(cmodxListed(w));
  for (uint32_t w : {0xd503245fu,   // bti c: a hint, but not NOP
                     0xd503233fu,   // paciasp
                     0xaa1e03e9u,   // mov x9, x30
                     0xd65f03c0u,   // ret
                     0xd61f0200u,   // br x16
                     0xffffffffu})  // no row
    CHECK_FALSE(cmodxListed(w));
}

TEST_CASE("arm64 CMODX: conditional branches of one kind mix condition and target", "[arm64_cmodx]") {
  CHECK(cmodxTargetField(0x54000000u, 0x54000021u) == 0x00ffffe0u);  // b.eq / b.ne
  CHECK(cmodxTargetField(0xb4000000u, 0x35000020u) == 0x00ffffe0u);  // cbz x0 / cbnz w0
  CHECK(cmodxTargetField(0x36000000u, 0xb7f80020u) == 0x0007ffe0u);  // tbz w0, #0 / tbnz x0, #63
  CHECK_FALSE(cmodxTargetField(0x54000000u, 0xb4000000u));           // b.eq / cbz: two kinds
  CHECK_FALSE(cmodxTargetField(0x14000000u, 0x54000000u));           // b is not conditional
  CHECK_FALSE(cmodxTargetField(0xd503201fu, 0x54000000u));           // nop
  CHECK(cmodxMixes(0x54000000u));
  CHECK_FALSE(cmodxMixes(0x94000000u));
}
