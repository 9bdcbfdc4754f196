/**
 * What web integrations share: the signed consistency cookie that carries a client's scope and last write from one
 * request to the next, on any instance that shares the key.
 */
package io.rwsplit.web;
