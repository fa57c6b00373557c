// SPDX-License-Identifier: MIT
// The attack of issue 11: one small contract, deployed by anyone, emitting the exact events of Aave V3, Compound V3,
// Uniswap V2/V3, an OpenZeppelin Governor, an ERC20Votes token, the ENS controller and EAS, naming any wallet.
// Model 1.0.0 scored them; the registry makes them worthless (src/modules/ingestion/forged-evidence.test.ts).
pragma solidity ^0.8.24;

contract EvidenceForger {
    event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode);
    event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode);
    event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens);
    event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken);
    event AbsorbDebt(address indexed absorber, address indexed borrower, uint256 basePaidOut, uint256 usdValue);
    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);
    event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick);
    event VoteCast(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason);
    event DelegateChanged(address indexed delegator, address indexed fromDelegate, address indexed toDelegate);
    event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires);
    event Attested(address indexed recipient, address indexed attester, bytes32 uid, bytes32 indexed schemaUID);

    uint256 public count;

    /// Everything a reputation could want, in one transaction, for `who` (amounts as a $1M USDC borrower's).
    function forgeAll(address who, address reserve, uint256 n) external {
        for (uint256 i = 0; i < n; i++) {
            uint256 k = ++count;
            emit Supply(reserve, who, who, 2_000_000e6, 0);
            emit Borrow(reserve, who, who, 1_000_000e6, 2, 5e25, 0);
            emit Repay(reserve, who, who, 1_000_000e6, false);
            emit Swap(who, 1_000_000e6, 0, 0, 500e18, who);
            emit Swap(who, who, int256(1_000_000e6), -int256(500e18), 1, 1, 0);
            emit VoteCast(who, k, 1, 1_000_000e18, "for");
            emit DelegateChanged(address(uint160(k)), address(0), who);
            emit NameRegistered("forged", keccak256(abi.encode(k)), who, 1e18, 0, block.timestamp + 365 days);
            emit Attested(who, address(this), keccak256(abi.encode(k, who)), keccak256("verified"));
        }
    }

    /// The griefing half: a liquidation (and a Comet absorb) naming someone else.
    function forgeLiquidation(address victim, address collateral, address debt, uint256 amount) external {
        emit LiquidationCall(collateral, debt, victim, amount, amount / 1500, msg.sender, false);
        emit AbsorbDebt(msg.sender, victim, amount, amount * 100);
    }

    function noop() external {
        ++count;
    }
}
