/* A branch into another function's patch area (assembled by GCC from the
 * asm statement): patching that function changes what this path runs. */
int counter;

int target(int x) { return x + counter; }

int jumper(int x) {
  if (x == 12345) __asm__ volatile("b target+4");
  return x * 2;
}
