# A frame slot written through sp and again through another base
# (tests/data/soundness/frame-alias.toml): 4(t2) with t2 = sp + t1 is the
# same slot as 16(sp) when t1 = 12, which F's argument a0 decides. The
# load back through sp must see the second store then, and the branch it
# feeds breaks F's s0. (n64: 64-bit addresses are base + offset terms.)
	.set	noreorder
	.set	noat
tramp:
	daddiu	sp, sp, -32		# a frame of our own: exceptions write below it
	li	t0, 5
	sw	t0, 16(sp)
	andi	t1, a0, 8
	daddiu	t1, t1, 12		# 12 or 20, by a0
	daddu	t2, sp, t1		# another base than sp ...
	sw	zero, 4(t2)		# ... at another offset: sp + 16 or sp + 24
	lw	t3, 16(sp)		# 0 when t1 = 12, else 5
	bnez	t3, 1f
	 daddiu	sp, sp, 32
	daddiu	s0, s0, 1		# F's s0 changed: the contract broken
1:	jr	ra
	 move	ra, at
