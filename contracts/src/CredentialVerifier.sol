// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {CredenceProof, IGroth16Verifier5} from "./CredenceProof.sol";

/// Verifies Credence age proofs (and KYC proofs, which are age proofs with minimum age 0) against birth-date
/// commitments published by the ISSUER_ROLE, and keeps the revocation list of credential hashes.
contract CredentialVerifier is AccessControl {
    bytes32 public constant ISSUER_ROLE = keccak256("ISSUER_ROLE");

    IGroth16Verifier5 public immutable ageVerifier;
    /// subject => commitment to the birth date of its approved KYC (0: none)
    mapping(address => uint256) public ageCommitmentOf;
    mapping(bytes32 => uint64) public revokedAt;

    event AgeCommitmentPublished(address indexed subject, uint256 commitment);
    event AgeCommitmentCleared(address indexed subject, uint256 commitment);
    event CredentialRevoked(bytes32 indexed credentialHash, address indexed issuer);

    error LengthMismatch();

    constructor(address admin, IGroth16Verifier5 verifier) {
        ageVerifier = verifier;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    function publishAgeCommitments(address[] calldata subjects, uint256[] calldata commitments) external onlyRole(ISSUER_ROLE) {
        if (subjects.length != commitments.length) revert LengthMismatch();
        for (uint256 i = 0; i < subjects.length; i++) {
            ageCommitmentOf[subjects[i]] = commitments[i];
            emit AgeCommitmentPublished(subjects[i], commitments[i]);
        }
    }

    /// Clears birth-date commitments that are still the published ones (compare-and-clear), e.g. after a KYC was
    /// revoked, so age proofs against them stop verifying.
    function clearAgeCommitments(address[] calldata subjects, uint256[] calldata commitments) external onlyRole(ISSUER_ROLE) {
        if (subjects.length != commitments.length) revert LengthMismatch();
        for (uint256 i = 0; i < subjects.length; i++) {
            if (commitments[i] != 0 && ageCommitmentOf[subjects[i]] == commitments[i]) {
                delete ageCommitmentOf[subjects[i]];
                emit AgeCommitmentCleared(subjects[i], commitments[i]);
            }
        }
    }

    /// True when `proof` shows its subject is at least `minimumAge` years old today (UTC, or yesterday for a
    /// proof made just before midnight), against the published birth-date commitment, and has not expired
    /// (its validUntil is not before block.timestamp). Not bound to a caller: see `verifyAgeProofFor`.
    function verifyAgeProof(bytes calldata proof, uint256 minimumAge) public view returns (bool) {
        (bool ok, CredenceProof.Decoded memory d) = CredenceProof.decode(proof);
        if (!ok || d.proofType == CredenceProof.SCORE_ABOVE_THRESHOLD) return false;
        if (d.proofType == CredenceProof.KYC_VERIFIED && minimumAge != 0) return false;
        if (d.pub[1] != minimumAge || CredenceProof.expired(d)) return false;
        uint256 today = dateOf(block.timestamp);
        if (d.pub[0] != today && d.pub[0] != dateOf(block.timestamp - 1 days)) return false;
        uint256 published = ageCommitmentOf[CredenceProof.subject(d)];
        if (published == 0 || published != d.pub[3]) return false;
        return ageVerifier.verifyProof(d.a, d.b, d.c, d.pub);
    }

    /// `verifyAgeProof`, and the proof is about `holder` (pass msg.sender so a proof handed out about someone
    /// else cannot be presented by its bearer).
    function verifyAgeProofFor(address holder, bytes calldata proof, uint256 minimumAge) external view returns (bool) {
        (bool ok, CredenceProof.Decoded memory d) = CredenceProof.decode(proof);
        return ok && CredenceProof.subject(d) == holder && verifyAgeProof(proof, minimumAge);
    }

    /// True when `proof` is a KYCVerified proof: its subject holds a birth-date commitment from an approved KYC.
    function verifyKycProof(bytes calldata proof) external view returns (bool) {
        (bool ok, CredenceProof.Decoded memory d) = CredenceProof.decode(proof);
        if (!ok || d.proofType != CredenceProof.KYC_VERIFIED) return false;
        return verifyAgeProof(proof, 0);
    }

    function revoke(bytes32 credentialHash) external onlyRole(ISSUER_ROLE) {
        if (revokedAt[credentialHash] == 0) {
            revokedAt[credentialHash] = uint64(block.timestamp);
            emit CredentialRevoked(credentialHash, msg.sender);
        }
    }

    function isRevoked(bytes32 credentialHash) external view returns (bool) {
        return revokedAt[credentialHash] != 0;
    }

    /// UTC calendar date yyyymmdd of a Unix time (Howard Hinnant's civil_from_days).
    function dateOf(uint256 timestamp) public pure returns (uint256) {
        uint256 z = timestamp / 1 days + 719468;
        uint256 era = z / 146097;
        uint256 doe = z - era * 146097;
        uint256 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        uint256 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        uint256 mp = (5 * doy + 2) / 153;
        uint256 d = doy - (153 * mp + 2) / 5 + 1;
        uint256 m = mp < 10 ? mp + 3 : mp - 9;
        uint256 y = yoe + era * 400 + (m <= 2 ? 1 : 0);
        return y * 10000 + m * 100 + d;
    }
}
