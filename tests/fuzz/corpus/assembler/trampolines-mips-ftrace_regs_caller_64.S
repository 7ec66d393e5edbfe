# ftrace_regs_caller for 64-bit kernels (n64), for sites made with
# -fpatchable-function-entry=3 (specs/mips/patchable-entry.toml):
#
#	F:	lui	at, %hi(ftrace_regs_caller)	# 64 KB aligned: at = our address
#		jalr	t1, at				# t1 = F + 12, where F resumes
#		li	t0, 0 / 1			# delay slot: regs / noregs
#
# The site leaves ra alone, so ra is F's return address (the parent ip).
# We build a struct pt_regs frame (PT_SIZE 304: regs[n] at 8n, cp0_epc at
# 296), call ftrace_ops_list_func(ip, parent_ip, ops, regs) with regs = 0
# in noregs mode, restore what the call may clobber and resume F at t1.
# Contract: ftrace_regs_caller_64.toml; proof: docs/trampolines.md.
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
	jr	t1				# resume F after the site
	 daddiu	sp, sp, 304
