// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Aave V3's AaveOracle as ingestion reads it: getAssetPrice(asset) in USD with 8 decimals (BASE_CURRENCY_UNIT
/// 1e8), reverting for an asset it has no source for (the real oracle then asks its fallback oracle, which is
/// unset on the V3 markets, so the call reverts). Placed at the address book's ORACLE address with hardhat_setCode.
contract MockAaveOracle {
    mapping(address => uint256) public prices;

    function setAssetPrice(address asset, uint256 price) external {
        prices[asset] = price;
    }

    function BASE_CURRENCY_UNIT() external pure returns (uint256) {
        return 1e8;
    }

    function getAssetPrice(address asset) external view returns (uint256) {
        uint256 p = prices[asset];
        require(p != 0, "no price source");
        return p;
    }
}
