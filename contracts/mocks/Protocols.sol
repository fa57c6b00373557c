// SPDX-License-Identifier: MIT
// Protocol mocks for the local chain: minimal state, but the exact events of Aave V3's Pool, Compound V3's Comet,
// Uniswap V2 pairs and V3 pools, an OpenZeppelin Governor, the ENS ETH registrar controller and EAS.
pragma solidity ^0.8.24;

interface IERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address who) external view returns (uint256);
}

contract MockAavePool {
    mapping(address => mapping(address => uint256)) public debt; // asset => user => debt

    event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode);
    event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode);
    event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens);
    event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken);

    function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode) external {
        IERC20(asset).transferFrom(msg.sender, address(this), amount);
        emit Supply(asset, msg.sender, onBehalfOf, amount, referralCode);
    }

    function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf) external {
        debt[asset][onBehalfOf] += amount;
        IERC20(asset).transfer(msg.sender, amount);
        emit Borrow(asset, msg.sender, onBehalfOf, amount, uint8(interestRateMode), 5e25, referralCode);
    }

    function repay(address asset, uint256 amount, uint256, address onBehalfOf) external returns (uint256) {
        uint256 owed = debt[asset][onBehalfOf];
        uint256 paid = amount > owed ? owed : amount;
        debt[asset][onBehalfOf] = owed - paid;
        IERC20(asset).transferFrom(msg.sender, address(this), paid);
        emit Repay(asset, onBehalfOf, msg.sender, paid, false);
        return paid;
    }

    function liquidationCall(address collateralAsset, address debtAsset, address user, uint256 debtToCover, bool receiveAToken) external {
        uint256 owed = debt[debtAsset][user];
        uint256 covered = debtToCover > owed ? owed : debtToCover;
        debt[debtAsset][user] = owed - covered;
        IERC20(debtAsset).transferFrom(msg.sender, address(this), covered);
        // collateral seized with a 5% bonus at a fixed price of 1,500 debt units per collateral unit
        uint256 collateral = (covered * 105) / 100 / 1500;
        IERC20(collateralAsset).transfer(msg.sender, collateral);
        emit LiquidationCall(collateralAsset, debtAsset, user, covered, collateral, msg.sender, receiveAToken);
    }
}

contract MockComet {
    address public baseToken;
    mapping(address => int256) public principal;

    event Supply(address indexed from, address indexed dst, uint256 amount);
    event Withdraw(address indexed src, address indexed to, uint256 amount);
    event AbsorbDebt(address indexed absorber, address indexed borrower, uint256 basePaidOut, uint256 usdValue);

    constructor(address base) {
        baseToken = base;
    }

    function supply(address asset, uint256 amount) external {
        require(asset == baseToken, "asset");
        IERC20(asset).transferFrom(msg.sender, address(this), amount);
        principal[msg.sender] += int256(amount);
        emit Supply(msg.sender, msg.sender, amount);
    }

    function withdraw(address asset, uint256 amount) external {
        require(asset == baseToken, "asset");
        principal[msg.sender] -= int256(amount);
        IERC20(asset).transfer(msg.sender, amount);
        emit Withdraw(msg.sender, msg.sender, amount);
    }

    function absorb(address absorber, address[] calldata accounts) external {
        for (uint256 i = 0; i < accounts.length; i++) {
            int256 p = principal[accounts[i]];
            require(p < 0, "not underwater");
            principal[accounts[i]] = 0;
            // usdValue as Comet reports it: 8 decimals, the 6-decimal base asset at a price of 1
            emit AbsorbDebt(absorber, accounts[i], uint256(-p), uint256(-p) * 100);
        }
    }
}

/// Constant-product pair; swap() is the V2 "tokens already sent in" form, swapExactIn() a router-like helper.
contract MockUniswapV2Pair {
    address public token0;
    address public token1;
    uint256 public reserve0;
    uint256 public reserve1;

    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);
    event Sync(uint112 reserve0, uint112 reserve1);

    constructor(address t0, address t1) {
        token0 = t0;
        token1 = t1;
    }

    function sync() public {
        reserve0 = IERC20(token0).balanceOf(address(this));
        reserve1 = IERC20(token1).balanceOf(address(this));
        emit Sync(uint112(reserve0), uint112(reserve1));
    }

    function swapExactIn(address tokenIn, uint256 amountIn, address to) external returns (uint256 out) {
        bool zeroIn = tokenIn == token0;
        require(zeroIn || tokenIn == token1, "token");
        IERC20(tokenIn).transferFrom(msg.sender, address(this), amountIn);
        (uint256 rIn, uint256 rOut) = zeroIn ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 inFee = amountIn * 997;
        out = (inFee * rOut) / (rIn * 1000 + inFee);
        IERC20(zeroIn ? token1 : token0).transfer(to, out);
        if (zeroIn) emit Swap(msg.sender, amountIn, 0, 0, out, to);
        else emit Swap(msg.sender, 0, amountIn, out, 0, to);
        sync();
    }
}

contract MockUniswapV3Pool {
    /// the fee tier the demo pins it at (the factory's CREATE2 address depends on it)
    uint24 public constant fee = 3000;
    address public token0;
    address public token1;
    uint128 public liquidity = 1e21;
    uint160 public sqrtPriceX96 = 79228162514264337593543950336;

    event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick);

    constructor(address t0, address t1) {
        token0 = t0;
        token1 = t1;
    }

    /// Swaps at a 1:1 price less a 0.3% fee (enough for events and balances to look like V3's).
    function swap(address recipient, bool zeroForOne, uint256 amountIn) external returns (int256 amount0, int256 amount1) {
        uint256 out = (amountIn * 997) / 1000;
        if (zeroForOne) {
            IERC20(token0).transferFrom(msg.sender, address(this), amountIn);
            IERC20(token1).transfer(recipient, out);
            (amount0, amount1) = (int256(amountIn), -int256(out));
        } else {
            IERC20(token1).transferFrom(msg.sender, address(this), amountIn);
            IERC20(token0).transfer(recipient, out);
            (amount0, amount1) = (-int256(out), int256(amountIn));
        }
        emit Swap(msg.sender, recipient, amount0, amount1, sqrtPriceX96, liquidity, 0);
    }
}

interface IVotes {
    function getVotes(address account) external view returns (uint256);
}

contract MockGovernor {
    IVotes public token;
    uint256 public proposalCount;
    mapping(uint256 => mapping(address => bool)) public hasVoted;

    event ProposalCreated(uint256 proposalId, address proposer, address[] targets, uint256[] values, string[] signatures, bytes[] calldatas, uint256 voteStart, uint256 voteEnd, string description);
    event VoteCast(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason);

    constructor(address votesToken) {
        token = IVotes(votesToken);
    }

    function propose(string calldata description) external returns (uint256 id) {
        id = uint256(keccak256(abi.encode(address(this), ++proposalCount, description)));
        emit ProposalCreated(id, msg.sender, new address[](0), new uint256[](0), new string[](0), new bytes[](0), block.number, block.number + 50400, description);
    }

    function castVoteWithReason(uint256 proposalId, uint8 support, string calldata reason) external returns (uint256 weight) {
        require(!hasVoted[proposalId][msg.sender], "voted");
        hasVoted[proposalId][msg.sender] = true;
        weight = token.getVotes(msg.sender);
        emit VoteCast(msg.sender, proposalId, support, weight, reason);
    }
}

/// The 2023 ETHRegistrarController's event (baseCost + premium).
contract MockENSRegistrarController {
    mapping(bytes32 => address) public owners;

    event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires);

    function register(string calldata name, address owner, uint256 duration) external payable {
        bytes32 label = keccak256(bytes(name));
        require(owners[label] == address(0), "taken");
        owners[label] = owner;
        emit NameRegistered(name, label, owner, msg.value, 0, block.timestamp + duration);
    }
}

contract MockEAS {
    uint256 public count;

    event Attested(address indexed recipient, address indexed attester, bytes32 uid, bytes32 indexed schemaUID);

    function attest(bytes32 schema, address recipient, bytes calldata data) external returns (bytes32 uid) {
        uid = keccak256(abi.encode(schema, recipient, msg.sender, data, ++count));
        emit Attested(recipient, msg.sender, uid, schema);
    }
}
