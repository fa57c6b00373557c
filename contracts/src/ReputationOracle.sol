// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {CredenceProof, IGroth16Verifier5} from "./CredenceProof.sol";

/// Credence's reputation oracle. The service (ORACLE_ROLE) publishes, in batches, the Poseidon commitment to
/// each wallet's score per category, and replaces or clears it (commitment 0) when that score changes; anyone can
/// then check a Credence score proof against the published commitment. A consumer that acts for the caller must
/// use `verifyProofFor(msg.sender, ...)`: `verifyProof` says only that the statement holds for the proof's own
/// subject, whoever presents it. Disputes that off-chain resolution did not settle are escalated here and
/// reviewed by GOVERNANCE_ROLE holders. Roles are administered by DEFAULT_ADMIN_ROLE (a multisig in production),
/// never by the service's hot ORACLE_ROLE key.
contract ReputationOracle is AccessControl {
    bytes32 public constant ORACLE_ROLE = keccak256("ORACLE_ROLE");
    bytes32 public constant GOVERNANCE_ROLE = keccak256("GOVERNANCE_ROLE");
    uint8 public constant CATEGORY_COUNT = 9;

    enum EscalationStatus {
        None,
        Pending,
        Upheld,
        Rejected
    }

    struct Escalation {
        address subject;
        uint8 category;
        EscalationStatus status;
        uint64 escalatedAt;
        uint64 reviewedAt;
        address reviewer;
        string reason;
        string resolution;
    }

    IGroth16Verifier5 public immutable scoreVerifier;
    /// subject => category => current score commitment (0: none published)
    mapping(address => mapping(uint8 => uint256)) public commitmentOf;
    mapping(bytes32 => Escalation) private escalations;

    event CommitmentPublished(address indexed subject, uint8 indexed category, uint256 commitment);
    event CommitmentCleared(address indexed subject, uint8 indexed category, uint256 commitment);
    event DisputeEscalated(bytes32 indexed disputeId, address indexed subject, uint8 category, string reason);
    event EscalationReviewed(bytes32 indexed disputeId, address indexed reviewer, bool upheld, string resolution);

    error LengthMismatch();
    error UnknownCategory(uint8 category);
    error AlreadyEscalated(bytes32 disputeId);
    error NotPending(bytes32 disputeId);

    constructor(address admin, IGroth16Verifier5 verifier) {
        scoreVerifier = verifier;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// Publishes (or replaces, superseding the old one) the score commitments of many subject/category pairs.
    /// Commitment 0 clears the pair: no proof verifies for it until a new commitment is published.
    function publishCommitments(address[] calldata subjects, uint8[] calldata categories, uint256[] calldata commitments)
        external
        onlyRole(ORACLE_ROLE)
    {
        if (subjects.length != categories.length || subjects.length != commitments.length) revert LengthMismatch();
        for (uint256 i = 0; i < subjects.length; i++) {
            if (categories[i] >= CATEGORY_COUNT) revert UnknownCategory(categories[i]);
            commitmentOf[subjects[i]][categories[i]] = commitments[i];
            emit CommitmentPublished(subjects[i], categories[i], commitments[i]);
        }
    }

    /// Clears the named commitments where they are still the published ones (a commitment replaced meanwhile is left
    /// alone), so proofs made against them stop verifying. The service calls it, batched, when the score behind a
    /// published commitment changed.
    function clearCommitments(address[] calldata subjects, uint8[] calldata categories, uint256[] calldata commitments)
        external
        onlyRole(ORACLE_ROLE)
    {
        if (subjects.length != categories.length || subjects.length != commitments.length) revert LengthMismatch();
        for (uint256 i = 0; i < subjects.length; i++) {
            if (categories[i] >= CATEGORY_COUNT) revert UnknownCategory(categories[i]);
            if (commitments[i] != 0 && commitmentOf[subjects[i]][categories[i]] == commitments[i]) {
                delete commitmentOf[subjects[i]][categories[i]];
                emit CommitmentCleared(subjects[i], categories[i], commitments[i]);
            }
        }
    }

    /// UNBOUND: true when `proof` (as returned by POST /api/v1/reputation/prove) is a valid Groth16 proof, not
    /// expired (validUntil >= block.timestamp), that the score committed for ITS subject in `category` is at least
    /// `threshold`, against the commitment published here. It does not say whose proof it is: anyone who obtained
    /// the bytes gets true. Use `verifyProofFor` to act for a holder, or `subjectOf` to learn the subject.
    function verifyProof(bytes calldata proof, uint256 threshold, uint8 category) public view returns (bool) {
        (bool ok, CredenceProof.Decoded memory d) = CredenceProof.decode(proof);
        if (!ok || d.proofType != CredenceProof.SCORE_ABOVE_THRESHOLD) return false;
        if (d.pub[0] != threshold || d.pub[1] != category || CredenceProof.expired(d)) return false;
        uint256 published = commitmentOf[CredenceProof.subject(d)][category];
        if (published == 0 || published != d.pub[3]) return false;
        return scoreVerifier.verifyProof(d.a, d.b, d.c, d.pub);
    }

    /// `verifyProof`, and the proof's subject is `holder`. A lender checks verifyProofFor(msg.sender, ...), so a
    /// victim's proof presented by someone else is refused.
    function verifyProofFor(address holder, bytes calldata proof, uint256 threshold, uint8 category) external view returns (bool) {
        if (proof.length != CredenceProof.LENGTH) return false;
        // pub[2] (the subject) is word 11 of the encoding: read it without decoding the whole proof twice
        if (uint256(bytes32(proof[11 * 32:12 * 32])) != uint256(uint160(holder))) return false;
        return verifyProof(proof, threshold, category);
    }

    /// The wallet a Credence proof is about (address(0) for bytes that are not a Credence proof).
    function subjectOf(bytes calldata proof) external pure returns (address) {
        (bool ok, CredenceProof.Decoded memory d) = CredenceProof.decode(proof);
        return ok ? CredenceProof.subject(d) : address(0);
    }

    /// Records a dispute escalated by the service; governance reviews it with `reviewEscalation`.
    function escalateDispute(bytes32 disputeId, address subject, uint8 category, string calldata reason) external onlyRole(ORACLE_ROLE) {
        if (category >= CATEGORY_COUNT) revert UnknownCategory(category);
        if (escalations[disputeId].status != EscalationStatus.None) revert AlreadyEscalated(disputeId);
        escalations[disputeId] = Escalation({
            subject: subject,
            category: category,
            status: EscalationStatus.Pending,
            escalatedAt: uint64(block.timestamp),
            reviewedAt: 0,
            reviewer: address(0),
            reason: reason,
            resolution: ""
        });
        emit DisputeEscalated(disputeId, subject, category, reason);
    }

    function reviewEscalation(bytes32 disputeId, bool upheld, string calldata resolution) external onlyRole(GOVERNANCE_ROLE) {
        Escalation storage e = escalations[disputeId];
        if (e.status != EscalationStatus.Pending) revert NotPending(disputeId);
        e.status = upheld ? EscalationStatus.Upheld : EscalationStatus.Rejected;
        e.reviewedAt = uint64(block.timestamp);
        e.reviewer = msg.sender;
        e.resolution = resolution;
        emit EscalationReviewed(disputeId, msg.sender, upheld, resolution);
    }

    function getEscalation(bytes32 disputeId) external view returns (Escalation memory) {
        return escalations[disputeId];
    }
}
