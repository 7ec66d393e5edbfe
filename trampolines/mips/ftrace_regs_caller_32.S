# ftrace_regs_caller for 32-bit kernels (o32), for sites made with
# -fpatchable-function-entry=3 (specs/mips/patchable-entry.toml):
#
#	F:	lui	at, %hi(ftrace_regs_caller)	# 64 KB aligned: at = our address
#		jalr	t1, at				# t1 = F + 12, where F resumes
#		li	t0, 0 / 1			# delay slot: regs / noregs
#
# The site leaves ra alone, so ra is F's return address (the parent ip).
# We build a struct pt_regs frame (PT_SIZE 184: 32 bytes of argument save
# area, regs[n] at 32 + 4n, cp0_epc at 180), call
# ftrace_ops_list_func(ip, parent_ip, ops, regs) with regs = 0 in noregs
# mode, restore what the call may clobber and resume F at t1. The first 16
# bytes of the frame are the o32 home area the callee may write.
# Contract: ftrace_regs_caller_32.toml; proof: docs/trampolines.md.
	.set	noreorder
	.set	noat
ftrace_regs_caller:
	lui	v0, %hi(function_trace_op)	# ops, read before the frame exists
	lw	v0, %lo(function_trace_op)(v0)
	addiu	sp, sp, -184			# struct pt_regs
	sw	a0, 48(sp)			# regs[4..7]: F's arguments
	sw	a1, 52(sp)
	sw	a2, 56(sp)
	sw	a3, 60(sp)
	sw	t1, 68(sp)			# regs[9]: the resume address
	sw	ra, 156(sp)			# regs[31]: F's return address
	bnez	t0, 1f				# noregs: no pt_regs for the tracer
	 move	a3, zero
	sw	s0, 96(sp)			# regs mode: the rest of pt_regs
	sw	s1, 100(sp)
	sw	s2, 104(sp)
	sw	s3, 108(sp)
	sw	s4, 112(sp)
	sw	s5, 116(sp)
	sw	s6, 120(sp)
	sw	s7, 124(sp)
	sw	gp, 144(sp)
	addiu	v1, sp, 184
	sw	v1, 148(sp)			# regs[29]: F's sp
	sw	s8, 152(sp)
	addiu	v1, t1, -12
	sw	v1, 180(sp)			# cp0_epc: the traced function
	move	a3, sp				# regs
1:	addiu	a0, t1, -12			# ip = F: the site is three words
	move	a1, ra				# parent ip
	move	a2, v0				# ops
	lui	t9, %hi(ftrace_ops_list_func)
	addiu	t9, t9, %lo(ftrace_ops_list_func)
	jalr	t9
	 nop
	lw	a0, 48(sp)			# what the call may have clobbered
	lw	a1, 52(sp)
	lw	a2, 56(sp)
	lw	a3, 60(sp)
	lw	t1, 68(sp)
	lw	ra, 156(sp)
	jr	t1				# resume F after the site
	 addiu	sp, sp, 184
