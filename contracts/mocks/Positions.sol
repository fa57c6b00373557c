// SPDX-License-Identifier: MIT
// Uniswap V3 liquidity positions for the local chain: a V3 pool mock that also takes liquidity (pool `Mint`), and
// the NonfungiblePositionManager reduced to what ingestion reads. A wallet that provides the liquidity it then
// trades against is self-dealing (see docs/scoring-model.md, "Self-dealing").
pragma solidity ^0.8.24;

import "./Protocols.sol";

interface IUniswapV3MintCallback {
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external;
}

/// MockUniswapV3Pool (same swaps, same storage) that also adds liquidity as V3's pool does: the caller pays in its
/// uniswapV3MintCallback (1 raw unit of each token per unit of liquidity here), then Mint names the position's owner.
contract MockUniswapV3LiquidityPool is MockUniswapV3Pool {
    event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1);

    constructor(address t0, address t1) MockUniswapV3Pool(t0, t1) {}

    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data) external returns (uint256 amount0, uint256 amount1) {
        (amount0, amount1) = (amount, amount);
        IUniswapV3MintCallback(msg.sender).uniswapV3MintCallback(amount0, amount1, data);
        emit Mint(msg.sender, recipient, tickLower, tickUpper, amount, amount0, amount1);
    }
}

/// mint adds liquidity at the pool (owner: the manager), paid by the caller, then mints the position NFT to
/// `recipient` and emits IncreaseLiquidity, in that order, as the real manager does. Anyone may name any recipient.
contract MockNonfungiblePositionManager {
    uint256 public nextId = 1;
    mapping(uint256 => address) public ownerOf;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1);

    function mint(address pool, uint128 liquidity, address recipient) external returns (uint256 id) {
        (uint256 amount0, uint256 amount1) = MockUniswapV3LiquidityPool(pool).mint(address(this), -600, 600, liquidity, abi.encode(msg.sender, pool));
        id = nextId++;
        ownerOf[id] = recipient;
        emit Transfer(address(0), recipient, id);
        emit IncreaseLiquidity(id, liquidity, amount0, amount1);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        (address payer, address pool) = abi.decode(data, (address, address));
        require(msg.sender == pool, "pool");
        IERC20(MockUniswapV3Pool(pool).token0()).transferFrom(payer, pool, amount0Owed);
        IERC20(MockUniswapV3Pool(pool).token1()).transferFrom(payer, pool, amount1Owed);
    }

    function transferFrom(address from, address to, uint256 id) external {
        require(ownerOf[id] == from && from == msg.sender, "owner");
        ownerOf[id] = to;
        emit Transfer(from, to, id);
    }
}
