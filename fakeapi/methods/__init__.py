"""The Bot API methods the fake answers, one mixin of FakeBotAPI per family.

A method ``fooBar`` is answered by ``_m_foobar(params)``: it returns the ``result`` of the
response or raises :class:`fakeapi.errors.TelegramAPIError`.
"""
