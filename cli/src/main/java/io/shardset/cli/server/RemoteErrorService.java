package io.shardset.cli.server;

import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Service;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Objects;

/**
 * Avatica's service with every failure of every request turned into the error its client
 * gets ({@link RemoteErrors}), whichever call failed (statements, fetches, metadata, closes,
 * Java errors), so that no error response carries the server's Java stack traces. The
 * failure itself goes to the server's log at debug level.
 */
final class RemoteErrorService implements InvocationHandler {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteErrorService.class);

  private final Service service;
  private final Caller.Current callers;

  private RemoteErrorService(Service service, Caller.Current callers) {
    this.service = Objects.requireNonNull(service, "service");
    this.callers = Objects.requireNonNull(callers, "callers");
  }

  /** The service, failing with the errors its clients get. */
  static Service around(Service service, Caller.Current callers) {
    return (Service) Proxy.newProxyInstance(Service.class.getClassLoader(),
        new Class<?>[] {Service.class}, new RemoteErrorService(service, callers));
  }

  @Override public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(service, args);
    } catch (InvocationTargetException e) {
      final Throwable failure = e.getCause();
      if (failure instanceof VirtualMachineError) {
        throw failure;
      }
      // Errors too (a failed static initializer of generated code, say): Avatica's handler
      // catches exceptions only, and Jetty would answer with its own page.
      final AvaticaRuntimeException error = RemoteErrors.forCaller(failure, callers.get());
      // The error prints its reason only; its cause is the failure, with its stack trace.
      LOG.debug("{} failed for {}: {}", method.getName(), callers.get().user(),
          error.getErrorMessage(), error.getCause() == null ? failure : error.getCause());
      throw error;
    }
  }
}
