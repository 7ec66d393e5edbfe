/* A cold function: GCC bug 88345 drops -falign-functions for it, so with
 * -fpatchable-function-entry=4,2 the 8-byte CALL_OPS literal before it may
 * be only 4-byte aligned (Linux works around it in c27cd083cfb9). */
int counter;

int hot(int x) { return x + counter; }

__attribute__((cold)) int rarely(int x) { return x * 3 + counter; }
