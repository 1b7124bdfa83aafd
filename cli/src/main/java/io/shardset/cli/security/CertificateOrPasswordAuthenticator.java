package io.shardset.cli.security;

import org.eclipse.jetty.security.ServerAuthException;
import org.eclipse.jetty.security.UserAuthentication;
import org.eclipse.jetty.security.authentication.BasicAuthenticator;
import org.eclipse.jetty.server.Authentication;
import org.eclipse.jetty.server.UserIdentity;

import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;

/**
 * HTTP BASIC, except that a client whose TLS certificate (checked against the server's client
 * authorities during the handshake) has a subject CN naming a user is that user, without a
 * password. A certificate naming nobody leaves the client to BASIC.
 */
public final class CertificateOrPasswordAuthenticator extends BasicAuthenticator {
  /** The request attribute where Jetty puts the client's certificate chain. */
  static final String CERTIFICATES = "javax.servlet.request.X509Certificate";

  private final UsersLoginService users;

  public CertificateOrPasswordAuthenticator(UsersLoginService users) {
    this.users = users;
  }

  @Override public Authentication validateRequest(ServletRequest request,
      ServletResponse response, boolean mandatory) throws ServerAuthException {
    if (mandatory && request.getAttribute(CERTIFICATES) instanceof X509Certificate[] chain
        && chain.length > 0) {
      final String name = commonName(chain[0]);
      if (name != null) {
        final UserIdentity identity = users.certified(name);
        if (identity != null) {
          return new UserAuthentication(getAuthMethod(), identity);
        }
      }
    }
    return super.validateRequest(request, response, mandatory);
  }

  /** The CN of a certificate's subject, or null. */
  static String commonName(X509Certificate certificate) {
    try {
      for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return rdn.getValue().toString();
        }
      }
    } catch (InvalidNameException e) {
      // No CN, then.
    }
    return null;
  }
}
