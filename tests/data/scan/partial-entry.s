# Two functions with two NOPs before them and no __patchable_function_entries:
# `full` starts with the whole compiled state of specs/arm64/ftrace-call-ops.toml
# (nop, nop | nop, nop); `partial` only with its first units (nop, nop | nop,
# then mov). Only `full` is compiled for patching (tests/scan/compiled_objects.sh).
	.text
	.balign 8
	nop
	nop
	.globl full
	.type full, %function
full:
	nop
	nop
	ret
	.size full, .-full
	.balign 8
	nop
	nop
	.globl partial
	.type partial, %function
partial:
	nop
	mov x0, x1
	ret
	.size partial, .-partial
