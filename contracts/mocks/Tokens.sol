// SPDX-License-Identifier: MIT
// Token mocks for the local chain: they emit the real ERC-20, ERC20Votes, ERC-721 and ERC-1155 events.
pragma solidity ^0.8.24;

contract MockERC20 {
    string public name;
    string public symbol;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }

    function decimals() public view virtual returns (uint8) {
        return 18;
    }

    /// Open mint: a test token.
    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
        _afterTransfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= amount, "allowance");
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        require(balanceOf[from] >= amount, "balance");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
        _afterTransfer(from, to, amount);
    }

    function _afterTransfer(address, address, uint256) internal virtual {}
}

/// ERC20Votes-style delegation (OpenZeppelin's DelegateChanged / DelegateVotesChanged events).
contract MockVotesToken is MockERC20 {
    mapping(address => address) public delegates;
    mapping(address => uint256) public getVotes;

    event DelegateChanged(address indexed delegator, address indexed fromDelegate, address indexed toDelegate);
    event DelegateVotesChanged(address indexed delegate, uint256 previousVotes, uint256 newVotes);

    constructor(string memory name_, string memory symbol_) MockERC20(name_, symbol_) {}

    function delegate(address delegatee) external {
        address old = delegates[msg.sender];
        delegates[msg.sender] = delegatee;
        emit DelegateChanged(msg.sender, old, delegatee);
        _moveVotes(old, delegatee, balanceOf[msg.sender]);
    }

    function _afterTransfer(address from, address to, uint256 amount) internal override {
        _moveVotes(delegates[from], delegates[to], amount);
    }

    function _moveVotes(address from, address to, uint256 amount) private {
        if (from == to || amount == 0) return;
        if (from != address(0)) {
            emit DelegateVotesChanged(from, getVotes[from], getVotes[from] - amount);
            getVotes[from] -= amount;
        }
        if (to != address(0)) {
            emit DelegateVotesChanged(to, getVotes[to], getVotes[to] + amount);
            getVotes[to] += amount;
        }
    }
}

contract MockERC721 {
    string public name;
    uint256 public nextId = 1;
    mapping(uint256 => address) public ownerOf;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    constructor(string memory name_) {
        name = name_;
    }

    function mint(address to) external returns (uint256 id) {
        id = nextId++;
        ownerOf[id] = to;
        emit Transfer(address(0), to, id);
    }

    function transferFrom(address from, address to, uint256 id) external {
        require(ownerOf[id] == from && from == msg.sender, "owner");
        ownerOf[id] = to;
        emit Transfer(from, to, id);
    }
}

contract MockERC1155 {
    mapping(uint256 => mapping(address => uint256)) public balanceOf;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);

    function mint(address to, uint256 id, uint256 value) external {
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, address(0), to, id, value);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata) external {
        require(from == msg.sender && balanceOf[id][from] >= value, "balance");
        balanceOf[id][from] -= value;
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, from, to, id, value);
    }

    function safeBatchTransferFrom(address from, address to, uint256[] calldata ids, uint256[] calldata values, bytes calldata) external {
        require(from == msg.sender && ids.length == values.length, "batch");
        for (uint256 i = 0; i < ids.length; i++) {
            require(balanceOf[ids[i]][from] >= values[i], "balance");
            balanceOf[ids[i]][from] -= values[i];
            balanceOf[ids[i]][to] += values[i];
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
    }
}

/// A USD stablecoin's six decimals (USDC, USDT): the demo pins it at USDC's mainnet address.
contract MockERC20Six is MockERC20 {
    constructor(string memory name_, string memory symbol_) MockERC20(name_, symbol_) {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }
}
