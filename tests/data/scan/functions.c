/* Functions as a kernel file has them: a leaf, a caller, a static helper.
 * tests/scan/compiled_objects.sh compiles this with each ISA's ftrace flags. */
int counter;

static int __attribute__((noinline)) helper(int x) { return x - counter; }

int leaf(int x) {
  if (x) counter++;
  return x + 1;
}

int caller(int x) { return helper(x) + leaf(x); }
