// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The part of ReputationOracle a consumer needs.
interface IReputationOracle {
    function verifyProofFor(address holder, bytes calldata proof, uint256 threshold, uint8 category) external view returns (bool);
}

/// Example consumer of Credence proofs: an undercollateralised lender that extends a credit line only to a
/// borrower who proves their OWN DEFI_LENDING score is at least MIN_SCORE. It checks the proof with
/// verifyProofFor(msg.sender, ...): a proof about someone else (any API key can obtain any wallet's proof) is
/// refused, and so is an expired proof or one whose score commitment Credence has since replaced or cleared.
contract ExampleLender {
    uint8 public constant DEFI_LENDING = 1; // categoryId: index in OVERALL, DEFI_LENDING, ... COMPLIANCE
    uint256 public constant MIN_SCORE = 800;

    IReputationOracle public immutable oracle;
    mapping(address => uint256) public creditLine;

    event CreditLineOpened(address indexed borrower, uint256 amount);

    error ProofRefused();

    constructor(IReputationOracle _oracle) {
        oracle = _oracle;
    }

    function openCreditLine(bytes calldata proof, uint256 amount) external {
        if (!oracle.verifyProofFor(msg.sender, proof, MIN_SCORE, DEFI_LENDING)) revert ProofRefused();
        creditLine[msg.sender] = amount;
        emit CreditLineOpened(msg.sender, amount);
    }
}
