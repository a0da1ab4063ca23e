/* The curve record of CycloneCRYPTO's SM2 field code (ec_cyclone.h with FE_SM2_OWN), in the shape of the
 * library's EcCurve (Oryx-Embedded/CycloneCRYPTO 62f78fe0a15ea50b4c838970ef7d88d285cc8af3, 2.5.0, ecc/ec.h):
 * the field's size in bits, p (with one more zero word, as the library's fixed-size arrays hold, read by the
 * addition's p subtraction over pLen + 1 words) and the reduction as a function pointer. ec_sm2_curve() is
 * defined in its own unit (ec_sm2_curve.c), as ec_curves.c is; the reduction cy_sm2_field_mod in
 * ec_cyclone.h. */
#ifndef REFBENCH_BIGNUM_C29_EC_SM2_H
#define REFBENCH_BIGNUM_C29_EC_SM2_H

#define EC_MAX_WORDS 9

typedef struct ec_curve ec_curve;
struct ec_curve {
    uint32_t field_bits;
    uint32_t p[EC_MAX_WORDS];
    void (*field_mod)(const ec_curve *curve, uint32_t *r, const uint32_t *a);
};

const ec_curve *ec_sm2_curve(void);
void cy_sm2_field_mod(const ec_curve *curve, uint32_t *r, const uint32_t *a);

#endif
