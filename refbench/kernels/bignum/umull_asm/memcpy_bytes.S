/* memcpy_bytes(dst, src, len): newlib's memcpy as GNU Tools for STM32 (the toolchain STM32CubeIDE
 * ships) builds it, one byte a step, in Thumb-2 for ARMv7-M and ARMv8-M Mainline. refbench's own code.
 *
 * Why a byte loop: GNU Tools for STM32 builds both of its C libraries, newlib ("Standard C") and
 * newlib-nano ("Reduced C", --specs=nano.specs), with CFLAGS_FOR_TARGET '-g -Os -ffunction-sections
 * -fdata-sections -fno-unroll-loops -DPREFER_SIZE_OVER_SPEED -D__OPTIMIZE_SIZE__ -DSMALL_MEMORY'
 * (STMicroelectronics/gnu-tools-for-stm32 build-toolchain.sh, Tasks [III-2] and [III-3], at
 * 55e79ed27db065da1d38bd213c6039c323f617cf and 7c203dd15ec8d60cecbca84debcf93f428c9e9d5). Under those
 * flags newlib/libc/machine/arm/memcpy.S takes newlib/libc/machine/arm/memcpy-stub.c's
 * "#elif (defined (__OPTIMIZE_SIZE__) || defined (PREFER_SIZE_OVER_SPEED))" branch, which includes
 * "../../string/memcpy.c", not memcpy-armv7m.S (the word copy it would take on ARMv7-M at -O2), and
 * memcpy.c under "#if defined(PREFER_SIZE_OVER_SPEED) || defined(__OPTIMIZE_SIZE__)" copies
 * "while (len0--) *dst++ = *src++;" (read at vitasdk/newlib 5f1683b496327d1e4da192541bf894344d63e23c
 * and smuehlst/circle-newlib a04f442d94a19e5f7a46491bc24d33619a1a3268; the same facts as
 * m0_asm/p256_mont.S's memcpy_bytes for ARMv6-M).
 *
 * The instructions are those arm-none-eabi-gcc at -Os -mthumb -mcpu=cortex-m4 (12.2.1, the Debian arm-none-eabi-gcc here) emits for a
 * byte-copy loop of that form (our own one-line C, compiled here to read its shape): the end
 * address once, then per byte CMP, BNE, LDRB post-indexed, STRB pre-indexed with write-back, B.
 * The length is a multiple of nothing in particular; len = 0 copies nothing. No branch or address
 * depends on the bytes copied: constant time. Clobbers r0-r3 (AAPCS), saves r4. */
	.syntax unified
	.thumb
	.text

/* void *memcpy_bytes(void *dst, const void *src, size_t len) */
	.global memcpy_bytes
	.type memcpy_bytes, %function
	.thumb_func
	.align 2
memcpy_bytes:
	push {r4, lr}
	subs r3, r0, #1				@ dst - 1, written pre-indexed
	add r2, r2, r1				@ src + len: the end
1:	cmp r1, r2
	bne 2f
	pop {r4, pc}				@ r0 = dst, unchanged
2:	ldrb r4, [r1], #1
	strb r4, [r3, #1]!
	b 1b
	.size memcpy_bytes, . - memcpy_bytes
