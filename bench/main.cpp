// Benchmarks: prints figures, asserts nothing. Each area adds a function
// to bench/ and a call here.
#include <cstdio>

namespace patchcheck::bench {
void encoder();
void arm64Encoder();
void checker();
void litmus();
}

int main() {
  patchcheck::bench::encoder();
  patchcheck::bench::arm64Encoder();
  patchcheck::bench::checker();
  patchcheck::bench::litmus();
  return 0;
}
