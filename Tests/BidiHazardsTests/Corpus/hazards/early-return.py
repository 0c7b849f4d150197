#!/usr/bin/env python3
bank = {"alice": 100}


def subtract_funds(account: str, amount: int):
    """ Subtract funds from bank account then ⁧""" ;return
    bank[account] -= amount
    return


def greet(name):
    '''Multi-line docstring:
    the second line holds ‮ an override
    '''
    label = f"user‪ {name}‬"
    return label‏


subtract_funds("alice", 50)  # ⁨ done
