// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The Groth16 verifiers exported by snarkjs for Credence's circuits (five public signals each).
interface IGroth16Verifier5 {
    function verifyProof(uint256[2] calldata a, uint256[2][2] calldata b, uint256[2] calldata c, uint256[5] calldata pubSignals)
        external
        view
        returns (bool);
}

/// Decodes the proof bytes the Credence API hands out: abi.encode(uint8 proofType, uint256[2] a,
/// uint256[2][2] b, uint256[2] c, uint256[5] publicSignals), with b's coordinates already in Solidity order.
/// In every circuit pub[2] is the subject (the wallet the proof is about) and pub[4] is validUntil (Unix seconds).
library CredenceProof {
    uint8 internal constant SCORE_ABOVE_THRESHOLD = 1;
    uint8 internal constant AGE_VERIFICATION = 2;
    uint8 internal constant KYC_VERIFIED = 3;
    uint256 internal constant LENGTH = 14 * 32;

    struct Decoded {
        uint8 proofType;
        uint256[2] a;
        uint256[2][2] b;
        uint256[2] c;
        uint256[5] pub;
    }

    /// ok is false (never a revert) for bytes of the wrong length or an out-of-range type or subject.
    function decode(bytes calldata proof) internal pure returns (bool ok, Decoded memory d) {
        if (proof.length != LENGTH) return (false, d);
        uint256 t;
        (t, d.a, d.b, d.c, d.pub) = abi.decode(proof, (uint256, uint256[2], uint256[2][2], uint256[2], uint256[5]));
        if (t == 0 || t > 3 || d.pub[2] >> 160 != 0) return (false, d);
        d.proofType = uint8(t);
        return (true, d);
    }

    function subject(Decoded memory d) internal pure returns (address) {
        return address(uint160(d.pub[2]));
    }

    /// An expired proof proves nothing any more: its statement may have been about a score since changed.
    function expired(Decoded memory d) internal view returns (bool) {
        return d.pub[4] < block.timestamp;
    }
}
