# A function whose patchable entry has an alignment directive inside it,
# assembled with linker relaxation on: GNU as pads with nops and an
# R_RISCV_ALIGN the linker may shrink, so the site's bytes in the object
# are not the kernel's (tests/scan/riscv_objects.sh).
	.option rvc
	.option relax
	.text
	.balign 8
.Lentry:
	nop
	nop
	nop
	nop
	.globl padded
	.type padded, @function
padded:
	nop
	.balign 4
	nop
	nop
	nop
	ret
	.size padded, .-padded
	.section __patchable_function_entries,"aw",@progbits
	.balign 8
	.8byte .Lentry
