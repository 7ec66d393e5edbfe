# A deliberately buggy copy of trampolines/mips/ftrace_regs_caller_64.S: returns with jr ra instead of
# resuming F at t1. Its proof must end (it once looped) and fail (tests/unit/trampoline_proof.cpp).
	.set	noreorder
	.set	noat
ftrace_regs_caller:
	lui	v0, %hi(function_trace_op)	# ops, read before the frame exists
	ld	v0, %lo(function_trace_op)(v0)
	daddiu	sp, sp, -304			# struct pt_regs
	sd	a0, 32(sp)			# regs[4..11]: F's arguments
	sd	a1, 40(sp)
	sd	a2, 48(sp)
	sd	a3, 56(sp)
	sd	a4, 64(sp)
	sd	a5, 72(sp)
	sd	a6, 80(sp)
	sd	a7, 88(sp)
	sd	t1, 104(sp)			# regs[13]: the resume address
	sd	ra, 248(sp)			# regs[31]: F's return address
	bnez	t0, 1f				# noregs: no pt_regs for the tracer
	 move	a3, zero
	sd	s0, 128(sp)			# regs mode: the rest of pt_regs
	sd	s1, 136(sp)
	sd	s2, 144(sp)
	sd	s3, 152(sp)
	sd	s4, 160(sp)
	sd	s5, 168(sp)
	sd	s6, 176(sp)
	sd	s7, 184(sp)
	sd	gp, 224(sp)
	daddiu	v1, sp, 304
	sd	v1, 232(sp)			# regs[29]: F's sp
	sd	s8, 240(sp)
	daddiu	v1, t1, -12
	sd	v1, 296(sp)			# cp0_epc: the traced function
	move	a3, sp				# regs
1:	daddiu	a0, t1, -12			# ip = F: the site is three words
	move	a1, ra				# parent ip
	move	a2, v0				# ops
	lui	t9, %hi(ftrace_ops_list_func)
	daddiu	t9, t9, %lo(ftrace_ops_list_func)
	jalr	t9
	 nop
	ld	a0, 32(sp)			# what the call may have clobbered
	ld	a1, 40(sp)
	ld	a2, 48(sp)
	ld	a3, 56(sp)
	ld	a4, 64(sp)
	ld	a5, 72(sp)
	ld	a6, 80(sp)
	ld	a7, 88(sp)
	ld	t1, 104(sp)
	ld	ra, 248(sp)
	jr	ra				# BUG: returns to F's caller
	 daddiu	sp, sp, 304
