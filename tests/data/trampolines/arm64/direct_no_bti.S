// Bug: ftrace_stub_direct_tramp without `bti c`. Harmless without BTI;
// with BTI, ftrace_caller's `br x17` to it raises a Branch Target exception.
ftrace_stub_direct_tramp:
	mov	x10, x30
	mov	x30, x9
	ret	x10
