/* SM2's curve record for CycloneCRYPTO's generic field code (ec_cyclone.h with FE_SM2_OWN), in a unit of its
 * own as the library's ec_curves.c is (Oryx-Embedded/CycloneCRYPTO 62f78fe0a15ea50b4c838970ef7d88d285cc8af3,
 * 2.5.0: ecc/ec_curves.c:1794-1837 sm2Curve), so that the field code reads the length and the reduction
 * (sm2FieldMod, :5702-5787: cy_sm2_field_mod) at run time, through the record. The code is refbench's own.
 */
#include "kernel.h"
#include "ec_sm2.h"

static const ec_curve SM2_CURVE = {
    256,
    {0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xfffffffeu, 0},
    cy_sm2_field_mod,
};

const ec_curve *ec_sm2_curve(void)
{
    return &SM2_CURVE;
}
