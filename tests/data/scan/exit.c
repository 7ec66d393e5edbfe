/* A function in .exit.text (as __exit puts it): built in, the kernel
 * discards it, so a patchable entry recorded for it points at freed code. */
int counter;

int live(int x) { return x + counter; }

__attribute__((section(".exit.text"))) void teardown(void) { counter = 0; }
