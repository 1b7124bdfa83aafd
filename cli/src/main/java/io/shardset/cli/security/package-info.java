/**
 * Who may use a server and what they did: the users file and its hashed passwords, the login
 * service that checks them and slows guessing, sign-in by client certificate, and the audit
 * trail.
 */
package io.shardset.cli.security;
