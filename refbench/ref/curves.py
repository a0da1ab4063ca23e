"""Domain parameters of the short Weierstrass curves y² = x³ + a·x + b over GF(p), with citations.

Each constant is typed in from the document named in ``source`` (hexadecimal as
printed there). ``tests/test_ecdsa.py::test_curve_constants`` checks every one: p and n prime,
G on the curve, n·G = O, and the non-singularity 4a³ + 27b² ≠ 0.

Curves: NIST P-256, P-384, P-521 (FIPS 186-4 Appendix D.1.2.3–D.1.2.5, the same
curves as SEC 2 v2 §2.4.2, 2.5.1, 2.6.1 secp256r1/secp384r1/secp521r1);
brainpoolP256r1, brainpoolP384r1, brainpoolP512r1 (RFC 5639 §3.4, 3.6, 3.7);
the SM2 recommended curve (GB/T 32918.5-2017 §5 / GM/T 0003.5-2012) and the
256-bit example curve of GB/T 32918.2/.3 Annex A (used only by the worked examples).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refbench.ref.modarith import PrimeField

__all__ = [
    "BRAINPOOLP256R1",
    "BRAINPOOLP384R1",
    "BRAINPOOLP512R1",
    "CURVES",
    "P256",
    "P384",
    "P521",
    "SM2P256V1",
    "SM2_EXAMPLE_P256",
    "WeierstrassCurve",
    "get_curve",
]


@dataclass(frozen=True)
class WeierstrassCurve:
    """y² = x³ + a·x + b over GF(p) with base point G = (gx, gy) of prime order n and cofactor h."""

    name: str
    p: int
    a: int
    b: int
    gx: int
    gy: int
    n: int
    h: int
    source: str
    aliases: tuple[str, ...] = ()
    oid: str = ""  # the namedCurve OBJECT IDENTIFIER (RFC 5480 §2.1.1.1, RFC 5639 §4.1)
    field: PrimeField = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "field", PrimeField(self.p))

    @property
    def G(self) -> tuple[int, int]:
        return (self.gx, self.gy)

    @property
    def a_is_minus_3(self) -> bool:
        """True when a ≡ −3 (mod p): the doubling formula then saves two squarings."""
        return (self.a + 3) % self.p == 0

    @property
    def byte_length(self) -> int:
        """Length of one encoded coordinate (SEC 1 §2.3.5: ⌈log₂ p / 8⌉)."""
        return (self.p.bit_length() + 7) // 8

    @property
    def order_byte_length(self) -> int:
        return (self.n.bit_length() + 7) // 8

    def __str__(self) -> str:
        return self.name


def _h(text: str) -> int:
    return int("".join(text.split()), 16)


P256 = WeierstrassCurve(
    name="secp256r1",
    oid="1.2.840.10045.3.1.7",
    p=_h("ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff"),
    a=_h("ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff fffffffc"),
    b=_h("5ac635d8 aa3a93e7 b3ebbd55 769886bc 651d06b0 cc53b0f6 3bce3c3e 27d2604b"),
    gx=_h("6b17d1f2 e12c4247 f8bce6e5 63a440f2 77037d81 2deb33a0 f4a13945 d898c296"),
    gy=_h("4fe342e2 fe1a7f9b 8ee7eb4a 7c0f9e16 2bce3357 6b315ece cbb64068 37bf51f5"),
    n=_h("ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551"),
    h=1,
    source="FIPS 186-4 Appendix D.1.2.3 (Curve P-256); SEC 2 v2 §2.4.2",
    aliases=("P-256", "prime256v1", "nistp256"),
)

P384 = WeierstrassCurve(
    name="secp384r1",
    oid="1.3.132.0.34",
    p=(1 << 384) - (1 << 128) - (1 << 96) + (1 << 32) - 1,
    a=(1 << 384) - (1 << 128) - (1 << 96) + (1 << 32) - 4,
    b=_h(
        "b3312fa7 e23ee7e4 988e056b e3f82d19 181d9c6e fe814112 0314088f 5013875a"
        "c656398d 8a2ed19d 2a85c8ed d3ec2aef"
    ),
    gx=_h(
        "aa87ca22 be8b0537 8eb1c71e f320ad74 6e1d3b62 8ba79b98 59f741e0 82542a38"
        "5502f25d bf55296c 3a545e38 72760ab7"
    ),
    gy=_h(
        "3617de4a 96262c6f 5d9e98bf 9292dc29 f8f41dbd 289a147c e9da3113 b5f0b8c0"
        "0a60b1ce 1d7e819d 7a431d7c 90ea0e5f"
    ),
    n=_h(
        "ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff c7634d81 f4372ddf"
        "581a0db2 48b0a77a ecec196a ccc52973"
    ),
    h=1,
    source="FIPS 186-4 Appendix D.1.2.4 (Curve P-384); SEC 2 v2 §2.5.1",
    aliases=("P-384", "nistp384"),
)

P521 = WeierstrassCurve(
    name="secp521r1",
    oid="1.3.132.0.35",
    p=(1 << 521) - 1,
    a=(1 << 521) - 4,
    b=_h(
        "051 953eb961 8e1c9a1f 929a21a0 b68540ee a2da725b 99b315f3 b8b48991 8ef109e1"
        "56193951 ec7e937b 1652c0bd 3bb1bf07 3573df88 3d2c34f1 ef451fd4 6b503f00"
    ),
    gx=_h(
        "c6 858e06b7 0404e9cd 9e3ecb66 2395b442 9c648139 053fb521 f828af60 6b4d3dba"
        "a14b5e77 efe75928 fe1dc127 a2ffa8de 3348b3c1 856a429b f97e7e31 c2e5bd66"
    ),
    gy=_h(
        "118 39296a78 9a3bc004 5c8a5fb4 2c7d1bd9 98f54449 579b4468 17afbd17 273e662c"
        "97ee7299 5ef42640 c550b901 3fad0761 353c7086 a272c240 88be9476 9fd16650"
    ),
    n=_h(
        "1ff ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff fffffffa"
        "51868783 bf2f966b 7fcc0148 f709a5d0 3bb5c9b8 899c47ae bb6fb71e 91386409"
    ),
    h=1,
    source="FIPS 186-4 Appendix D.1.2.5 (Curve P-521); SEC 2 v2 §2.6.1",
    aliases=("P-521", "nistp521"),
)

BRAINPOOLP256R1 = WeierstrassCurve(
    name="brainpoolP256r1",
    oid="1.3.36.3.3.2.8.1.1.7",
    p=_h("A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377"),
    a=_h("7D5A0975FC2C3057EEF67530417AFFE7FB8055C126DC5C6CE94A4B44F330B5D9"),
    b=_h("26DC5C6CE94A4B44F330B5D9BBD77CBF958416295CF7E1CE6BCCDC18FF8C07B6"),
    gx=_h("8BD2AEB9CB7E57CB2C4B482FFC81B7AFB9DE27E1E3BD23C23A4453BD9ACE3262"),
    gy=_h("547EF835C3DAC4FD97F8461A14611DC9C27745132DED8E545C1D54C72F046997"),
    n=_h("A9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7"),
    h=1,
    source="RFC 5639 §3.4 (brainpoolP256r1)",
)

BRAINPOOLP384R1 = WeierstrassCurve(
    name="brainpoolP384r1",
    oid="1.3.36.3.3.2.8.1.1.11",
    p=_h(
        "8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B412B1DA197FB71123ACD3A729901D1A71874700133107EC53"
    ),
    a=_h(
        "7BC382C63D8C150C3C72080ACE05AFA0C2BEA28E4FB22787139165EFBA91F90F8AA5814A503AD4EB04A8C7DD22CE2826"
    ),
    b=_h(
        "04A8C7DD22CE28268B39B55416F0447C2FB77DE107DCD2A62E880EA53EEB62D57CB4390295DBC9943AB78696FA504C11"
    ),
    gx=_h(
        "1D1C64F068CF45FFA2A63A81B7C13F6B8847A3E77EF14FE3DB7FCAFE0CBD10E8E826E03436D646AAEF87B2E247D4AF1E"
    ),
    gy=_h(
        "8ABE1D7520F9C2A45CB1EB8E95CFD55262B70B29FEEC5864E19C054FF99129280E4646217791811142820341263C5315"
    ),
    n=_h(
        "8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B31F166E6CAC0425A7CF3AB6AF6B7FC3103B883202E9046565"
    ),
    h=1,
    source="RFC 5639 §3.6 (brainpoolP384r1)",
)

BRAINPOOLP512R1 = WeierstrassCurve(
    name="brainpoolP512r1",
    oid="1.3.36.3.3.2.8.1.1.13",
    p=_h(
        "AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA703308717D4D9B009BC66842AECDA12AE6A380E6"
        "2881FF2F2D82C68528AA6056583A48F3"
    ),
    a=_h(
        "7830A3318B603B89E2327145AC234CC594CBDD8D3DF91610A83441CAEA9863BC2DED5D5AA8253AA10A2EF1C98B9AC8B5"
        "7F1117A72BF2C7B9E7C1AC4D77FC94CA"
    ),
    b=_h(
        "3DF91610A83441CAEA9863BC2DED5D5AA8253AA10A2EF1C98B9AC8B57F1117A72BF2C7B9E7C1AC4D77FC94CADC083E67"
        "984050B75EBAE5DD2809BD638016F723"
    ),
    gx=_h(
        "81AEE4BDD82ED9645A21322E9C4C6A9385ED9F70B5D916C1B43B62EEF4D0098EFF3B1F78E2D0D48D50D1687B93B97D5F"
        "7C6D5047406A5E688B352209BCB9F822"
    ),
    gy=_h(
        "7DDE385D566332ECC0EABFA9CF7822FDF209F70024A57B1AA000C55B881F8111B2DCDE494A5F485E5BCA4BD88A2763AE"
        "D1CA2B2FA8F0540678CD1E0F3AD80892"
    ),
    n=_h(
        "AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA70330870553E5C414CA92619418661197FAC1047"
        "1DB1D381085DDADDB58796829CA90069"
    ),
    h=1,
    source="RFC 5639 §3.7 (brainpoolP512r1)",
)

SM2P256V1 = WeierstrassCurve(
    name="sm2p256v1",
    oid="1.2.156.10197.1.301",
    p=_h("FFFFFFFE FFFFFFFF FFFFFFFF FFFFFFFF FFFFFFFF 00000000 FFFFFFFF FFFFFFFF"),
    a=_h("FFFFFFFE FFFFFFFF FFFFFFFF FFFFFFFF FFFFFFFF 00000000 FFFFFFFF FFFFFFFC"),
    b=_h("28E9FA9E 9D9F5E34 4D5A9E4B CF6509A7 F39789F5 15AB8F92 DDBCBD41 4D940E93"),
    gx=_h("32C4AE2C 1F198119 5F990446 6A39C994 8FE30BBF F2660BE1 715A4589 334C74C7"),
    gy=_h("BC3736A2 F4F6779C 59BDCEE3 6B692153 D0A9877C C62A4740 02DF32E5 2139F0A0"),
    n=_h("FFFFFFFE FFFFFFFF FFFFFFFF FFFFFFFF 7203DF6B 21C6052B 53BBF409 39D54123"),
    h=1,
    source="GB/T 32918.5-2017 §5 (recommended curve; = GM/T 0003.5-2012)",
    aliases=("SM2", "sm2"),
)

SM2_EXAMPLE_P256 = WeierstrassCurve(
    name="sm2-example-fp256",
    p=_h("8542D69E 4C044F18 E8B92435 BF6FF7DE 45728391 5C45517D 722EDB8B 08F1DFC3"),
    a=_h("787968B4 FA32C3FD 2417842E 73BBFEFF 2F3C848B 6831D7E0 EC65228B 3937E498"),
    b=_h("63E4C6D3 B23B0C84 9CF84241 484BFE48 F61D59A5 B16BA06E 6E12D1DA 27C5249A"),
    gx=_h("421DEBD6 1B62EAB6 746434EB C3CC315E 32220B3B ADD50BDC 4C4E6C14 7FEDD43D"),
    gy=_h("0680512B CBB42C07 D47349D2 153B70C4 E5D7FDFC BFA36EA1 A85841B9 E46E09A2"),
    n=_h("8542D69E 4C044F18 E8B92435 BF6FF7DD 29772063 0485628D 5AE74EE7 C32E79B7"),
    h=1,
    source="GB/T 32918.2-2016 / 32918.3-2016 Annex A.1 (example curve over F_p, 256 bits; "
    "also draft-shen-sm2-ecdsa-02 Appendix A); examples only, not for use",
)

#: Every curve by its canonical name.
CURVES: dict[str, WeierstrassCurve] = {
    c.name: c
    for c in (
        P256,
        P384,
        P521,
        BRAINPOOLP256R1,
        BRAINPOOLP384R1,
        BRAINPOOLP512R1,
        SM2P256V1,
        SM2_EXAMPLE_P256,
    )
}

_BY_NAME: dict[str, WeierstrassCurve] = {}
for _c in CURVES.values():
    _BY_NAME[_c.name.lower()] = _c
    for _alias in _c.aliases:
        _BY_NAME[_alias.lower()] = _c


def get_curve(name: str) -> WeierstrassCurve:
    """The curve called ``name`` (canonical name or alias such as ``P-256``, case-insensitive)."""
    curve = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if curve is None:
        accepted = ", ".join(
            sorted(
                {c.name for c in CURVES.values()} | {a for c in CURVES.values() for a in c.aliases}
            )
        )
        raise ValueError(f"Invalid curve name ({name!r}); accepted: {accepted}")
    return curve
