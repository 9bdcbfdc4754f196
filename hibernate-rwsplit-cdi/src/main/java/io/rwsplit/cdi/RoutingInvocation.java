package io.rwsplit.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.context.spi.Context;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;

/**
 * What the three interceptors do: push the frame of the intercepted method on the request's stack,
 * proceed, pop it (also when the call throws). Where no request context is active (a scheduled task, a
 * message listener in plain CDI) one is activated for the duration of the outermost call.
 */
@ApplicationScoped
class RoutingInvocation {

    private final RoutingAnnotations annotations = new RoutingAnnotations();

    @Inject
    BeanManager beanManager;

    @Inject
    RwSplitRequest request;

    @Inject
    Instance<RequestContextController> controllers;

    Object around(InvocationContext invocation) throws Exception {
        RoutingFrame frame = annotations.frameOf(invocation.getTarget().getClass(), invocation.getMethod());
        RequestContextController controller = requestContextActive() ? null : controllers.get();
        if (controller != null) {
            controller.activate();
        }
        try {
            request.push(frame);
            try {
                return invocation.proceed();
            }
            finally {
                request.pop();
            }
        }
        finally {
            if (controller != null) {
                controller.deactivate();
                controllers.destroy(controller);
            }
        }
    }

    private boolean requestContextActive() {
        for (Context context : beanManager.getContexts(RequestScoped.class)) {
            if (context.isActive()) {
                return true;
            }
        }
        return false;
    }
}
