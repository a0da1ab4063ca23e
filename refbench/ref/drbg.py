"""Hash_DRBG with SHA-256 (NIST SP 800-90A Rev. 1, June 2015, §10.1.1).

This is the generator behind wolfSSL's "RNG" benchmark line (wolfSSL's RNG is
Hash_DRBG over SHA-256). Read beside SP 800-90A Rev. 1:

* §10.1 Table 2: for SHA-256, outlen = 256, seedlen = 440 bits, security strength 256,
  reseed_interval <= 2^48, at most 2^19 bits per request;
* §10.3.1 the derivation function :func:`Hash_df`;
* §10.1.1.2 :meth:`HashDRBG.instantiate` (the constructor), §10.1.1.3 :meth:`HashDRBG.reseed`,
  §10.1.1.4 :meth:`HashDRBG.generate` with :func:`Hashgen`;
* §9.3.1 step 7: a request *with prediction resistance* first reseeds with fresh entropy and
  the additional input, then generates with no additional input
  (:meth:`HashDRBG.generate` with ``prediction_resistance_entropy``). This is how the CAVP
  ``drbgvectors_pr_true`` files exercise it.

Entropy and nonce are parameters: this module is a deterministic reference, not a source of
randomness. Integers V and C are kept as ``seedlen``-bit byte strings as in the standard.
"""

from __future__ import annotations

from refbench.errors import RefbenchError
from refbench.ref import hashes

HASH = "sha-256"
OUTLEN = 256  # bits, Table 2
SEEDLEN = 440  # bits, Table 2
SECURITY_STRENGTH = 256  # bits, Table 2 (SP 800-57 for SHA-256)
RESEED_INTERVAL = 1 << 48  # Table 2: maximum number of requests between reseeds
MAX_BITS_PER_REQUEST = 1 << 19  # Table 2
MAX_LENGTH_BITS = 1 << 35  # Table 2: entropy input, personalization string, additional input


class ReseedRequired(RefbenchError):
    """§10.1.1.4 step 1: reseed_counter exceeded reseed_interval; the caller must reseed."""


def Hash(data: bytes) -> bytes:
    """The approved hash function, SHA-256, through the shared registry."""
    return hashes.digest(HASH, data)


def Hash_df(input_string: bytes, no_of_bits_to_return: int) -> bytes:
    """§10.3.1 Hash_df: derive ``no_of_bits_to_return`` bits (a multiple of 8 here) from ``input_string``.

    temp = Hash(counter || no_of_bits_to_return || input_string) for counter = 1, 2, ...
    (counter an 8-bit and no_of_bits_to_return a 32-bit big-endian integer); return the leftmost bits.
    """
    if no_of_bits_to_return % 8 or not 0 < no_of_bits_to_return <= 255 * OUTLEN:
        raise ValueError(
            f"Invalid no_of_bits_to_return ({no_of_bits_to_return}) for Hash_df; "
            f"accepted: a multiple of 8 from 8 to {255 * OUTLEN}"
        )
    length = -(-no_of_bits_to_return // OUTLEN)  # len = ceil(no_of_bits_to_return / outlen)
    temp = b""
    for counter in range(1, length + 1):
        temp += Hash(bytes([counter]) + no_of_bits_to_return.to_bytes(4, "big") + input_string)
    return temp[: no_of_bits_to_return // 8]


def _add(*terms: bytes | int) -> bytes:
    """(sum of the terms, byte strings read as big-endian integers) mod 2^seedlen, as seedlen bits."""
    total = sum(t if isinstance(t, int) else int.from_bytes(t, "big") for t in terms)
    return (total % (1 << SEEDLEN)).to_bytes(SEEDLEN // 8, "big")


def Hashgen(requested_no_of_bits: int, V: bytes) -> bytes:
    """§10.1.1.4 Hashgen: Hash(data) || Hash(data + 1) || ..., leftmost requested bits."""
    m = -(-requested_no_of_bits // OUTLEN)
    data = V
    W = b""
    for _ in range(m):
        W += Hash(data)
        data = _add(data, 1)
    return W[: requested_no_of_bits // 8]


def _check_length(parameter: str, value: bytes) -> bytes:
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"{parameter} must be bytes, not {type(value).__name__}")
    if len(value) * 8 > MAX_LENGTH_BITS:
        raise ValueError(
            f"Invalid {parameter} length ({len(value) * 8} bits) for Hash_DRBG; accepted: up to 2^35 bits"
        )
    return bytes(value)


class HashDRBG:
    """A Hash_DRBG (SHA-256) instance; the constructor is Instantiate (§10.1.1.2).

    The internal state is (V, C, reseed_counter) as in §10.1.1.1.
    """

    def __init__(
        self, entropy_input: bytes, nonce: bytes, personalization_string: bytes = b""
    ) -> None:
        entropy_input = self._check_entropy(entropy_input)
        nonce = _check_length("nonce", nonce)
        personalization_string = _check_length("personalization_string", personalization_string)
        # §10.1.1.2 steps 1-6.
        seed_material = entropy_input + nonce + personalization_string
        seed = Hash_df(seed_material, SEEDLEN)
        self.V = seed
        self.C = Hash_df(b"\x00" + self.V, SEEDLEN)
        self.reseed_counter = 1

    @staticmethod
    def _check_entropy(entropy_input: bytes) -> bytes:
        entropy_input = _check_length("entropy_input", entropy_input)
        if len(entropy_input) * 8 < SECURITY_STRENGTH:
            raise ValueError(
                f"Invalid entropy_input length ({len(entropy_input) * 8} bits) for Hash_DRBG SHA-256; "
                f"accepted: at least {SECURITY_STRENGTH} bits (the security strength, §8.6.3)"
            )
        return entropy_input

    def reseed(self, entropy_input: bytes, additional_input: bytes = b"") -> None:
        """§10.1.1.3 steps 1-6: fold fresh entropy (and optional additional input) into V and C."""
        entropy_input = self._check_entropy(entropy_input)
        additional_input = _check_length("additional_input", additional_input)
        seed_material = b"\x01" + self.V + entropy_input + additional_input
        seed = Hash_df(seed_material, SEEDLEN)
        self.V = seed
        self.C = Hash_df(b"\x00" + self.V, SEEDLEN)
        self.reseed_counter = 1

    def generate(
        self,
        requested_number_of_bytes: int,
        additional_input: bytes = b"",
        prediction_resistance_entropy: bytes | None = None,
    ) -> bytes:
        """§10.1.1.4: return ``requested_number_of_bytes`` pseudorandom bytes.

        With ``prediction_resistance_entropy`` the request is made with prediction resistance
        (§9.3.1 step 7): Reseed(entropy, additional_input) first, then generate with no
        additional input.
        """
        if (
            not isinstance(requested_number_of_bytes, int)
            or not 0 < requested_number_of_bytes * 8 <= MAX_BITS_PER_REQUEST
        ):
            raise ValueError(
                f"Invalid requested_number_of_bytes ({requested_number_of_bytes!r}) for Hash_DRBG; "
                f"accepted: 1 to {MAX_BITS_PER_REQUEST // 8} (2^19 bits per request, Table 2)"
            )
        additional_input = _check_length("additional_input", additional_input)
        if prediction_resistance_entropy is not None:
            self.reseed(prediction_resistance_entropy, additional_input)
            additional_input = b""
        # Step 1.
        if self.reseed_counter > RESEED_INTERVAL:
            raise ReseedRequired()
        # Step 2.
        if additional_input:
            w = Hash(b"\x02" + self.V + additional_input)
            self.V = _add(self.V, w)
        # Step 3.
        returned_bits = Hashgen(requested_number_of_bytes * 8, self.V)
        # Steps 4-6.
        H = Hash(b"\x03" + self.V)
        self.V = _add(self.V, H, self.C, self.reseed_counter)
        self.reseed_counter += 1
        return returned_bits
