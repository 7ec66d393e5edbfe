// The simplest direct-call trampoline on arm64 (ftrace_stub_direct_tramp
// in arch/arm64/kernel/entry-ftrace.S, v6.3 and later; the shape every
// direct trampoline that returns shares). Reached by `bl` from F's entry
// or by `br x17` from ftrace_caller, with x9 = F's lr and x30 = where F
// resumes; it goes back with x30 = F's lr, as if F were not traced.
// Contract: ftrace_stub_direct_tramp.toml.
ftrace_stub_direct_tramp:
	bti	c			// `br x17` from ftrace_caller lands here
	mov	x10, x30		// where F resumes
	mov	x30, x9			// F's lr
	ret	x10
