# ftrace_caller.S with a bug: the traced ip is t0 - 8 (F, the auipc)
# rather than t0 - 4 (the jalr, ftrace_call_adjust).
ftrace_caller:
	ld	t1, -16(t0)		# ops
	ld	t1, 208(t1)		# ops->direct_call
	bnez	t1, .Ldirect		# a direct trampoline: nothing saved
	addi	sp, sp, -112		# struct ftrace_regs
	sd	t0, 0(sp)		# epc: where F resumes
	sd	ra, 8(sp)		# F's return address
	sd	s0, 24(sp)		# frame-pointer builds save s0 (HAVE_FUNCTION_GRAPH_FP_TEST)
	sd	t1, 32(sp)		# t1 = 0: no direct trampoline unless a tracer sets one
	sd	a0, 48(sp)		# F's arguments, for the tracer and for us
	sd	a1, 56(sp)
	sd	a2, 64(sp)
	sd	a3, 72(sp)
	sd	a4, 80(sp)
	sd	a5, 88(sp)
	sd	a6, 96(sp)
	sd	a7, 104(sp)
	addi	a0, sp, 112		# F's sp
	sd	a0, 16(sp)
	addi	a0, t0, -8		# ip: wrong
	mv	a1, ra			# parent ip: F's return address
	ld	a2, -16(t0)		# ops
	ld	ra, 0(a2)		# ops->func
	mv	a3, sp			# fregs
	jalr	ra
	ld	t0, 0(sp)		# the call may have changed every argument register
	ld	ra, 8(sp)
	ld	s0, 24(sp)
	ld	t1, 32(sp)
	ld	a0, 48(sp)
	ld	a1, 56(sp)
	ld	a2, 64(sp)
	ld	a3, 72(sp)
	ld	a4, 80(sp)
	ld	a5, 88(sp)
	ld	a6, 96(sp)
	ld	a7, 104(sp)
	addi	sp, sp, 112
	bnez	t1, .Ldirect		# a tracer asked for a direct trampoline
	jr	t0			# back to F + 8
.Ldirect:
	jr	t1			# the direct trampolines' convention: t0, ra, sp as at entry
