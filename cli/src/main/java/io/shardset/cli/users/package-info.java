/** {@code shardset users}: adding users with hashed passwords to a server's users file. */
package io.shardset.cli.users;
