package io.rwsplit;
final class Placeholder {}
