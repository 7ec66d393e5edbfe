// Benchmarks: prints figures, asserts nothing. Each area adds a function
// to bench/ and a call here.
#include <cstdio>

namespace patchcheck::bench {
void encoder();
void arm64Encoder();
void checker();
}

int main() {
  patchcheck::bench::encoder();
  patchcheck::bench::arm64Encoder();
  patchcheck::bench::checker();
  return 0;
}
