"""The throttle of wrong tokens, the one use of a ``?token=`` link and login links' codes,
with no IO."""

from __future__ import annotations

from jupyter_mars.web.logins import (
    FIRST_LOCK,
    FORGET_AFTER,
    FREE_GUESSES,
    LOGIN_CODE_SECONDS,
    LONGEST_LOCK,
    MAX_LOGIN_CODES,
    LinkToken,
    LoginCodes,
    LoginThrottle,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_locks_double_from_the_first_guess_past_the_free_ones_up_to_the_longest() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock)
    for i in range(FREE_GUESSES):
        throttle.failed("a", f"guess-{i}")
        assert throttle.wait("a") == 0
    locks = []
    for i in range(12):
        throttle.failed("a", f"more-{i}")
        locks.append(throttle.wait("a"))
        clock.now += locks[-1]  # the guesser waits each lock out
        assert throttle.wait("a") == 0
    assert locks[:3] == [FIRST_LOCK, 2 * FIRST_LOCK, 4 * FIRST_LOCK]
    assert max(locks) == locks[-1] == LONGEST_LOCK
    assert throttle.wait("b") == 0  # another client is not slowed down


def test_a_repeated_wrong_token_is_one_guess_and_clients_are_forgotten() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock)
    for _ in range(10 * FREE_GUESSES):
        throttle.failed("a", "stale")
    assert throttle.wait("a") == 0
    for i in range(FREE_GUESSES + 1):
        throttle.failed("a", f"guess-{i}")
    assert throttle.wait("a") > 0
    clock.now += FORGET_AFTER + 1
    throttle.failed("a", "after a long while")
    assert throttle.wait("a") == 0


def test_a_link_logs_in_once() -> None:
    link = LinkToken()
    assert link.use()
    assert not link.use()
    assert link.spent


def test_a_login_code_works_once_and_only_for_a_few_minutes() -> None:
    clock = Clock()
    codes = LoginCodes(clock)
    first, second = codes.mint(), codes.mint()
    assert first != second
    assert len(first) >= 32  # random, not guessable
    assert codes.redeem(first)
    assert not codes.redeem(first)  # used
    assert not codes.redeem("made-up")
    clock.now += LOGIN_CODE_SECONDS
    assert not codes.redeem(second)  # expired
    third = codes.mint()
    clock.now += LOGIN_CODE_SECONDS - 1
    assert codes.redeem(third)


def test_asking_for_many_login_codes_drops_the_oldest() -> None:
    codes = LoginCodes(Clock())
    minted = [codes.mint() for _ in range(MAX_LOGIN_CODES + 1)]
    assert not codes.redeem(minted[0])
    assert all(codes.redeem(code) for code in minted[1:])
