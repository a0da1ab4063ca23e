/* The curve record of c29's SM2 field code (ec_sm2.c), in the shape of CycloneCRYPTO's EcCurve (ecc/ec.h
 * at 2.5.0): the field's size in bits, p (with one more zero word, as the library's fixed-size arrays
 * hold, read by the addition's p subtraction over pLen + 1 words) and the reduction as a function
 * pointer. ec_sm2_curve() is defined in its own unit (ec_sm2_curve.c), as ec_curves.c is. */
#ifndef REFBENCH_BIGNUM_C29_EC_SM2_H
#define REFBENCH_BIGNUM_C29_EC_SM2_H

#define EC_MAX_WORDS 9

typedef signed int int32_t;
typedef signed long long int64_t;

typedef struct ec_curve ec_curve;
struct ec_curve {
    uint32_t field_bits;
    uint32_t p[EC_MAX_WORDS];
    void (*field_mod)(const ec_curve *curve, uint32_t *r, const uint32_t *a);
};

const ec_curve *ec_sm2_curve(void);
void ec_field_canonicalize(const ec_curve *curve, uint32_t *r, const uint32_t *a);

#endif
