// SPDX-License-Identifier: MIT
// A minimal ENS registry and public resolver for the local chain. Tests copy the registry's runtime code to the
// canonical registry address (0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e) with hardhat_setCode, then build the
// records with calls: the root is claimed by its first caller, then setSubnodeOwner / setResolver as on mainnet.
pragma solidity ^0.8.24;

contract MockENSRegistry {
    struct Record {
        address owner;
        address resolver;
    }

    mapping(bytes32 => Record) private records;

    event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner);
    event NewResolver(bytes32 indexed node, address resolver);

    modifier authorised(bytes32 node) {
        address o = records[node].owner;
        // no constructor runs behind hardhat_setCode: an unowned root is claimed by whoever sets it up first
        require(o == msg.sender || (node == bytes32(0) && o == address(0)), "ENS: not the owner");
        _;
    }

    function owner(bytes32 node) external view returns (address) {
        return records[node].owner;
    }

    function resolver(bytes32 node) external view returns (address) {
        return records[node].resolver;
    }

    function setSubnodeOwner(bytes32 node, bytes32 label, address owner_) external authorised(node) returns (bytes32 subnode) {
        subnode = keccak256(abi.encodePacked(node, label));
        records[subnode].owner = owner_;
        emit NewOwner(node, label, owner_);
    }

    function setResolver(bytes32 node, address resolver_) external authorised(node) {
        records[node].resolver = resolver_;
        emit NewResolver(node, resolver_);
    }
}

/// The addr(bytes32) profile of a public resolver (no wildcard support: supportsInterface(0x9061b923) is false).
contract MockENSResolver {
    mapping(bytes32 => address) private addrs;

    event AddrChanged(bytes32 indexed node, address a);

    function setAddr(bytes32 node, address a) external {
        addrs[node] = a;
        emit AddrChanged(node, a);
    }

    function addr(bytes32 node) external view returns (address payable) {
        return payable(addrs[node]);
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x3b3b57de; // ERC-165, addr(bytes32)
    }
}

/// A resolver that answers only off-chain (EIP-3668 CCIP-read): addr() reverts with OffchainLookup naming `url`,
/// which a CCIP-read client would then fetch. The service must never fetch it (that would be SSRF).
contract MockOffchainResolver {
    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);

    string private url;

    function setUrl(string calldata u) external {
        url = u;
    }

    function addr(bytes32 node) external view returns (address payable) {
        string[] memory urls = new string[](1);
        urls[0] = url;
        revert OffchainLookup(address(this), urls, abi.encodeWithSelector(this.addr.selector, node), this.addrWithProof.selector, "");
    }

    function addrWithProof(bytes calldata, bytes calldata) external pure returns (address payable) {
        return payable(address(0x1234));
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x3b3b57de;
    }
}
