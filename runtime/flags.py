"""``absl.flags`` / ``absl.app`` and TF1's ``tf.compat.v1.flags`` / ``tf.compat.v1.app`` over them.

TF1's flags are absl's: one registry. absl's ``FLAGS`` refuses a read before the command line
is parsed (``UnparsedFlagAccessError``) and ``app.run`` refuses flags nobody defined; TF's
``_FlagValuesWrapper`` parses ``sys.argv`` on the first read (an unknown flag is an
``UnrecognizedFlagError``), and TF's ``app.run`` parses leaving unknown flags to ``main``. Both
``run``s call ``main`` with the remaining arguments, then exit with its return value.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


class Error(Exception):
    """Base of the flags errors (``absl.flags.Error``)."""


class DuplicateFlagError(Error):
    pass


class IllegalFlagValueError(Error):
    pass


class UnrecognizedFlagError(Error):
    pass


class UnparsedFlagAccessError(Error):
    pass


class UsageError(Exception):
    """``absl.app.UsageError``: ``main`` saying its command line is wrong."""

    def __init__(self, message: str, exitcode: int = 1) -> None:
        super().__init__(message)
        self.exitcode = exitcode


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "t", "1", "yes", "y"):
        return True
    if lowered in ("false", "f", "0", "no", "n"):
        return False
    raise IllegalFlagValueError(f"Non-boolean argument to boolean flag: {text}")


class _Flag:
    def __init__(self, name: str, default: Any, help_text: str, parse: Callable[[str], Any]) -> None:
        self.name = name
        self.default = default
        self.help = help_text
        self.parse = parse
        self.value = default
        self.is_bool = parse is _parse_bool


class FlagValues:
    """The registry of defined flags, as absl's: ``FLAGS.name`` reads a parsed value."""

    def __init__(self) -> None:
        self.__dict__["_flags"] = {}
        self.__dict__["_parsed"] = False

    def _define(self, flag: _Flag) -> None:
        if flag.name in self._flags:
            raise DuplicateFlagError(f"The flag '{flag.name}' is defined twice.")
        self._flags[flag.name] = flag

    def __getattr__(self, name: str) -> Any:
        flags = self.__dict__["_flags"]
        if name not in flags:
            raise AttributeError(name)
        if not self.__dict__["_parsed"]:
            raise UnparsedFlagAccessError(f"Trying to access flag --{name} before flags were parsed.")
        return flags[name].value

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._flags:
            raise AttributeError(name)
        self._flags[name].value = value

    def __contains__(self, name: str) -> bool:
        return name in self._flags

    def __call__(self, argv: list[str], known_only: bool = False) -> list[str]:
        """Parse ``argv``; return ``argv[0]`` plus what is not a known flag."""
        rest = [argv[0]] if argv else []
        args = list(argv[1:])
        while args:
            arg = args.pop(0)
            if arg == "--":
                rest += args
                break
            if not arg.startswith("-") or arg == "-":
                rest.append(arg)
                continue
            name, eq, value = arg.lstrip("-").partition("=")
            flag = self._flags.get(name)
            if flag is None and name.startswith("no") and not eq:
                negated = self._flags.get(name[2:])
                if negated is not None and negated.is_bool:
                    negated.value = False
                    continue
            if flag is None:
                if not known_only:
                    raise UnrecognizedFlagError(f"Unknown command line flag '{name}'")
                rest.append(arg)
                continue
            if flag.is_bool and not eq:
                flag.value = True
                continue
            if not eq:
                if not args:
                    raise Error(f"Flag --{name} must have a value other than None.")
                value = args.pop(0)
            try:
                flag.value = flag.parse(value)
            except ValueError as exc:
                raise IllegalFlagValueError(f"flag --{name}={value}: {exc}") from None
        self.__dict__["_parsed"] = True
        return rest

    def is_parsed(self) -> bool:
        return self._parsed

    def mark_as_parsed(self) -> None:
        self.__dict__["_parsed"] = True

    def flag_values_dict(self) -> dict[str, Any]:
        return {name: flag.value for name, flag in self._flags.items()}


FLAGS = FlagValues()


class _ParsingOnRead:
    """TF1's ``tf.flags.FLAGS``: absl's ``FLAGS``, parsing ``sys.argv`` on the first read."""

    def __init__(self, wrapped: FlagValues) -> None:
        self.__dict__["_wrapped"] = wrapped

    def __getattr__(self, name: str) -> Any:
        wrapped = self.__dict__["_wrapped"]
        if name in wrapped and not wrapped.is_parsed():
            wrapped(sys.argv)
        return getattr(wrapped, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.__dict__["_wrapped"], name, value)

    def __contains__(self, name: str) -> bool:
        return name in self.__dict__["_wrapped"]

    def __call__(self, argv: list[str], known_only: bool = False) -> list[str]:
        return self.__dict__["_wrapped"](argv, known_only)


TF1_FLAGS = _ParsingOnRead(FLAGS)


def _definer(parse: Callable[[str], Any]) -> Callable:
    def define(name: str, default: Any, help: str | None = None, flag_values: FlagValues = FLAGS,
               **kwargs: Any) -> None:
        flag_values._define(_Flag(name, default, help or "", parse))

    return define


def _list(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def DEFINE_enum(name: str, default: Any, enum_values: list, help: str | None = None,
                flag_values: FlagValues = FLAGS, **kwargs: Any) -> None:
    def parse(text: str) -> str:
        if text not in enum_values:
            raise ValueError(f"value should be one of <{'|'.join(enum_values)}>")
        return text

    flag_values._define(_Flag(name, default, help or "", parse))


def run(main: Callable | None = None, argv: list[str] | None = None) -> None:
    """``tf.compat.v1.app.run``: parse flags, call ``main(argv)``, exit with its result."""
    main = main or sys.modules["__main__"].main
    rest = FLAGS(sys.argv if argv is None else argv, known_only=True)
    sys.exit(main(rest))


def absl_run(main: Callable, argv: list[str] | None = None, flags_parser: Callable | None = None) -> None:
    """``absl.app.run``: parse every flag (an unknown one ends the program), call ``main(argv)``."""
    try:
        rest = (flags_parser or FLAGS)(sys.argv if argv is None else argv)
    except Error as error:
        sys.stderr.write(f"FATAL Flags parsing error: {error}\nPass --helpshort or --helpfull to see help on flags.\n")
        sys.exit(1)
    try:
        sys.exit(main(rest))
    except UsageError as error:
        sys.stderr.write(f"{sys.argv[0] if sys.argv else ''}: {error}\n")
        sys.exit(error.exitcode)


FLAGS_TABLE = {
    "FLAGS": FLAGS, "FlagValues": FlagValues, "DEFINE_integer": _definer(int), "DEFINE_float": _definer(float),
    "DEFINE_string": _definer(str), "DEFINE_boolean": _definer(_parse_bool), "DEFINE_bool": _definer(_parse_bool),
    "DEFINE_list": _definer(_list), "DEFINE_enum": DEFINE_enum, "Error": Error,
    "DuplicateFlagError": DuplicateFlagError, "IllegalFlagValueError": IllegalFlagValueError,
    "UnrecognizedFlagError": UnrecognizedFlagError, "UnparsedFlagAccessError": UnparsedFlagAccessError,
}
TF1_FLAGS_TABLE = FLAGS_TABLE | {"FLAGS": TF1_FLAGS}
APP_TABLE = {"run": absl_run, "UsageError": UsageError}
