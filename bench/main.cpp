// Benchmarks: prints figures, asserts nothing. Each area adds a function
// to bench/ and a call here.
#include <cstdio>

namespace patchcheck::bench {
void encoder();
void checker();
}

int main() {
  patchcheck::bench::encoder();
  patchcheck::bench::checker();
  return 0;
}
