package io.shardset.cli.security;

import io.shardset.calcite.guard.AuditLog;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.eclipse.jetty.security.AbstractLoginService;
import org.eclipse.jetty.server.UserIdentity;
import org.eclipse.jetty.util.security.Credential;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.security.auth.Subject;
import javax.servlet.ServletRequest;

/**
 * Jetty's login service over a {@link UsersFile}: checks passwords (hashed ones through
 * {@link PasswordHash}), slows guessing ({@link GuessingGuard}), logs each refusal with the
 * address and never the password, and signs in the users whose client certificate names them.
 *
 * <p>HTTP BASIC sends the password with every request. A hashed password is checked in full
 * once; then the process remembers, per user, a keyed digest of the password that passed
 * (HMAC-SHA256 with a key of its own, made at start), so that a request costs a digest, not
 * 210,000 iterations.
 */
public final class UsersLoginService extends AbstractLoginService {
  private static final Logger LOG = LoggerFactory.getLogger(UsersLoginService.class);
  /** What a user name may not put into a log line as it is. */
  private static final Pattern UNPRINTABLE = Pattern.compile("[^\\p{Graph} ]");

  private final UsersFile users;
  private final GuessingGuard guard;
  private final AuditLog audit;
  private final byte[] digestKey = new byte[32];
  /** Per user, the keyed digest of the password (and stored form) that last passed. */
  private final Map<String, byte[]> passed = new ConcurrentHashMap<>();

  public UsersLoginService(String realm, UsersFile users, GuessingGuard guard, AuditLog audit) {
    this.users = users;
    this.guard = guard;
    this.audit = audit;
    new SecureRandom().nextBytes(digestKey);
    setName(realm);
  }

  @Override public @Nullable UserIdentity login(String username, Object credentials,
      ServletRequest request) {
    final String address = request.getRemoteAddr();
    try {
      guard.awaitTurn(address);
      final UserIdentity identity = super.login(username, credentials, request);
      if (identity != null) {
        guard.succeeded(address, username);
        return identity;
      }
      final Duration next = guard.failed(address, username);
      LOG.warn("authentication failed for user '{}' from {} ({} failures in a row from the"
          + " address, {} for the user); the address's next attempt waits {} ms",
          printable(username), address, guard.failuresFrom(address),
          guard.failuresFor(username), next.toMillis());
      audit.refused(printable(username), address);
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /**
   * The identity of a user a client certificate names, without a password, or null when no
   * user has that name.
   */
  public @Nullable UserIdentity certified(String name) {
    final UserPrincipal principal = loadUserInfo(name);
    if (principal == null) {
      return null;
    }
    final String[] roles = loadRoleInfo(principal);
    final Subject subject = new Subject();
    subject.getPrincipals().add(principal);
    for (String role : roles) {
      subject.getPrincipals().add(new RolePrincipal(role));
    }
    subject.setReadOnly();
    return getIdentityService().newUserIdentity(subject, principal, roles);
  }

  @Override protected String[] loadRoleInfo(UserPrincipal user) {
    final UsersFile.User known = users.user(user.getName());
    return known == null ? new String[0] : known.roles().toArray(new String[0]);
  }

  @Override protected @Nullable UserPrincipal loadUserInfo(String username) {
    final UsersFile.User user = users.user(username);
    return user == null ? null : new UserPrincipal(username, new Checked(user));
  }

  /** A user's stored password, checked as {@link UsersLoginService} checks it. */
  private final class Checked extends Credential {
    private static final long serialVersionUID = 1L;
    private final transient UsersFile.User user;

    Checked(UsersFile.User user) {
      this.user = user;
    }

    @Override public boolean check(Object credentials) {
      if (!(credentials instanceof String password)) {
        return false;
      }
      final byte[] digest = digest(user, password);
      final byte[] remembered = passed.get(user.name());
      if (remembered != null && MessageDigest.isEqual(remembered, digest)) {
        return true;
      }
      if (!user.matches(password.toCharArray())) {
        return false;
      }
      passed.put(user.name(), digest);
      return true;
    }
  }

  private byte[] digest(UsersFile.User user, String password) {
    try {
      final Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(digestKey, "HmacSHA256"));
      mac.update(user.stored().getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return mac.doFinal(password.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no HmacSHA256", e);
    }
  }

  /** A user name as a log line may show it: a client chose it. */
  static String printable(String name) {
    final String shown = name.length() > 64 ? name.substring(0, 64) + "..." : name;
    return UNPRINTABLE.matcher(shown).replaceAll("?");
  }
}
